import { vi, type Mock } from 'vitest';

/** A canned answer of the stubbed backend. */
export interface RouteAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request the app sent to the stubbed backend. */
export interface RecordedCall {
  method: string;
  /** Path and query, e.g. `/api/v1/oauth-consent-grants?cursor=a`. */
  path: string;
  authorization: string | null;
  body: unknown;
}

/** Answers keyed by `METHOD /path` (query included); a function answers per call, a pending promise never settles. */
export type Routes = Record<string, RouteAnswer | ((call: RecordedCall) => RouteAnswer | Promise<RouteAnswer>)>;

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): RouteAnswer {
  return { status, body, headers };
}

/** The backend's error envelope. */
export function errorEnvelope(
  status: number,
  code: string,
  message: string,
  extras: Record<string, unknown> = {},
): RouteAnswer {
  return json({ error: { code, message, requestId: 'req-test-1', ...extras } }, status);
}

/**
 * Replaces `fetch` with an in-memory backend; unknown routes answer 404. `calls` lists every request in order.
 *
 * @example
 * const backend = stubBackend({ 'GET /api/v1/auth/me': json({ data: { user } }) });
 */
export function stubBackend(routes: Routes): {
  fetch: Mock<typeof fetch>;
  calls: RecordedCall[];
  callsTo: (route: string) => RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      window.location.origin,
    );
    const headers = new Headers(init?.headers);
    const call: RecordedCall = {
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      authorization: headers.get('authorization'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    const answer =
      route === undefined
        ? errorEnvelope(404, 'NOT_FOUND', 'No such route.')
        : typeof route === 'function'
          ? await route(call)
          : route;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    calls,
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
}

/** Stubs `window.location.assign` (jsdom cannot navigate away); the rest of `location` stays live. */
export function stubLocationAssign(): Mock<(url: string | URL) => void> {
  const assign = vi.fn<(url: string | URL) => void>();
  const real = window.location;
  // jsdom's `assign` is non-configurable, so the stand-in forwards everything else to the real location.
  const standIn = new Proxy(
    {},
    {
      get: (_target, key) => {
        if (key === 'assign') return assign;
        const value: unknown = Reflect.get(real, key, real);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
      },
    },
  );
  vi.stubGlobal('location', standIn);
  return assign;
}

/** A promise that never settles: keeps a request pending for the rest of a test. */
export function pending<T>(): Promise<T> {
  return new Promise<T>(() => {});
}
