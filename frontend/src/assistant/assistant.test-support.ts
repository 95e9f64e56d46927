import { vi } from 'vitest';

/** One request the page sent. */
export interface SentRequest {
  method: string;
  path: string;
  authorization: string | null;
  accept: string | null;
  body: unknown;
}

/** Serializes events as the backend writes them (`event:` line, one `data:` line, blank line). */
export function sse(...events: Array<[string, unknown]>): string {
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

const encoder = new TextEncoder();

/** A complete `text/event-stream` answer, delivered in the given chunks. */
export function sseResponse(...chunks: string[]): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8' } });
}

/** An event stream the test writes to while the page reads it. */
export function openSseStream(): {
  response: Response;
  write: (text: string) => void;
  close: () => void;
  cancelled: () => boolean;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let wasCancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      wasCancelled = true;
    },
  });
  return {
    response: new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    write: (text) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    cancelled: () => wasCancelled,
  };
}

/** A JSON answer. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** Replaces `fetch`: answers keyed by `METHOD /path`, unknown routes 404; `requests` lists what was sent. */
export function stubFetch(routes: Record<string, (request: SentRequest) => Response | Promise<Response>>): {
  requests: SentRequest[];
  to: (route: string) => SentRequest[];
} {
  const requests: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input, init) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        window.location.origin,
      );
      const headers = new Headers(init?.headers);
      const request: SentRequest = {
        method: init?.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        authorization: headers.get('authorization'),
        accept: headers.get('accept'),
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      requests.push(request);
      const route = routes[`${request.method} ${request.path}`];
      return route ? route(request) : jsonResponse({ error: { code: 'NOT_FOUND', message: 'No such route.' } }, 404);
    }),
  );
  return { requests, to: (route) => requests.filter((r) => `${r.method} ${r.path}` === route) };
}

/** A pending approval as the backend describes it. */
export function approvalFixture(overrides: Record<string, unknown> = {}) {
  return {
    approvalId: 'appr-1',
    executionId: '7d4f5f36-2a7c-4c1e-9d55-3f1e1b2c9a10',
    functionRef: 'todos.update',
    toolCallId: 'call-1',
    arguments: { id: 'todo-1', title: 'Weekly shop' },
    allowArgumentModification: false,
    createdAt: '2030-11-05T10:00:00.000Z',
    expiresAt: '2030-11-05T10:15:00.000Z',
    approvalToken: 'token-abc',
    ...overrides,
  };
}
