import { Agent, type Dispatcher } from 'undici';
import { createGuardedConnector, systemHostResolver, type HostResolver } from './guarded-connector.js';
import { findOutboundRefusal, OutboundTargetRefused } from './outbound-target.errors.js';
import { OutboundTargetPolicy, type OutboundTargetPolicyOptions } from './outbound-target.policy.js';

/** Default bounds of a guard: 1 MiB, 5 s to connect (TCP and TLS), 10 s in total. */
export const DEFAULT_OUTBOUND_LIMITS = {
  maxBytes: 1_048_576,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 10_000,
} as const;

/** Options of an {@link OutboundTargetGuard}. */
export interface OutboundTargetGuardOptions extends OutboundTargetPolicyOptions {
  /** Largest response body accepted, in bytes (declared or streamed). */
  maxBytes?: number;
  /** Time allowed to open the connection, TLS handshake included. */
  connectTimeoutMs?: number;
  /** Time allowed for the whole exchange, from connecting to the last body byte. */
  totalTimeoutMs?: number;
  /** How host names are resolved; defaults to the system resolver. Tests inject a fixed mapping. */
  resolveHost?: HostResolver;
  /** Extra PEM certificates to trust besides Node's bundled roots (a test CA, a corporate CA). */
  trustedCertificates?: readonly string[];
}

/** One outbound request. Bounds given here can only tighten the guard's own. */
export interface OutboundRequestInit {
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  maxBytes?: number;
  timeoutMs?: number;
  /** Which statuses count as success; defaults to 2xx. A 3xx is always a refusal. */
  acceptStatus?: (status: number) => boolean;
}

/** What a guarded request returns: the status, lower-cased headers and the body as text. */
export interface OutboundResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  text: string;
}

/** The request function of a guard, for callers that only need to fetch. */
export interface OutboundFetcher {
  fetch(target: string | URL, init?: OutboundRequestInit): Promise<OutboundResponse>;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Fetches user-supplied URLs safely: https only, no credentials, no non-public address (checked
 * on the address actually connected to), no redirects, bounded time and size.
 *
 * @example
 * const guard = new OutboundTargetGuard({ mode: 'production' });
 * const { text } = await guard.fetch('https://tool.example/client.json', { maxBytes: 65_536 });
 */
export class OutboundTargetGuard implements OutboundFetcher {
  readonly policy: OutboundTargetPolicy;
  private readonly agent: Agent;
  private readonly maxBytes: number;
  private readonly totalTimeoutMs: number;

  constructor(options: OutboundTargetGuardOptions) {
    this.policy = new OutboundTargetPolicy(options);
    this.maxBytes = positive(options.maxBytes, DEFAULT_OUTBOUND_LIMITS.maxBytes, 'maxBytes');
    this.totalTimeoutMs = positive(options.totalTimeoutMs, DEFAULT_OUTBOUND_LIMITS.totalTimeoutMs, 'totalTimeoutMs');
    const connectTimeoutMs = positive(
      options.connectTimeoutMs,
      DEFAULT_OUTBOUND_LIMITS.connectTimeoutMs,
      'connectTimeoutMs',
    );
    this.agent = new Agent({
      connect: createGuardedConnector({
        policy: this.policy,
        resolveHost: options.resolveHost ?? systemHostResolver,
        connectTimeoutMs,
        ...(options.trustedCertificates ? { trustedCertificates: options.trustedCertificates } : {}),
      }),
      headersTimeout: this.totalTimeoutMs,
      bodyTimeout: this.totalTimeoutMs,
    });
  }

  /**
   * Sends one request and reads the whole (bounded) body.
   *
   * @throws {OutboundTargetRefused} for every refusal and transport failure; a caller's own abort rethrows its reason.
   */
  async fetch(target: string | URL, init: OutboundRequestInit = {}): Promise<OutboundResponse> {
    const url = this.policy.checkUrl(target);
    const maxBytes = Math.min(this.maxBytes, init.maxBytes ?? Infinity);
    const timeoutMs = Math.min(this.totalTimeoutMs, init.timeoutMs ?? Infinity);
    const acceptStatus = init.acceptStatus ?? ((status: number) => status >= 200 && status < 300);

    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, timeoutMs);
    const signal = init.signal ? AbortSignal.any([deadline.signal, init.signal]) : deadline.signal;
    try {
      // The dispatcher's own request API: no redirect is ever followed, and it costs a fraction of `fetch`'s
      // per-request work (web streams, Request/Response objects), which every connector call pays.
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
        // identity keeps Content-Length meaningful; the streamed bound also covers decoded bytes.
        headers: { 'accept-encoding': 'identity', ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        signal,
      });
      const status = response.statusCode;
      if (status >= 300 && status < 400) {
        await discard(response.body);
        throw new OutboundTargetRefused('redirect_refused', { status });
      }
      if (!acceptStatus(status)) {
        await discard(response.body);
        throw new OutboundTargetRefused('bad_status', { status });
      }
      const headers = headerRecord(response.headers);
      const declared = Number(headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await discard(response.body);
        throw new OutboundTargetRefused('too_large');
      }
      const text = await readBoundedText(response.body, maxBytes);
      return { status, headers, text };
    } catch (error) {
      if (init.signal?.aborted && !timedOut) throw init.signal.reason;
      throw toRefusal(error, timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the guard's connections, aborting requests still in flight. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** A guarded `fetch`-like function with the guard's `close`. */
export type OutboundFetch = ((target: string | URL, init?: OutboundRequestInit) => Promise<OutboundResponse>) & {
  close(): Promise<void>;
};

/** Creates a guarded `fetch`-like function; see {@link OutboundTargetGuard}. */
export function createOutboundFetch(options: OutboundTargetGuardOptions): OutboundFetch {
  const guard = new OutboundTargetGuard(options);
  return Object.assign((target: string | URL, init?: OutboundRequestInit) => guard.fetch(target, init), {
    close: () => guard.close(),
  });
}

/** Lower-cased header names, each with one text value (repeated headers joined as HTTP allows). */
function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

async function readBoundedText(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for await (const chunk of body) {
    const bytes = chunk as Uint8Array;
    received += bytes.byteLength;
    if (received > maxBytes) {
      body.destroy();
      throw new OutboundTargetRefused('too_large');
    }
    text += decoder.decode(bytes, { stream: true });
  }
  return text + decoder.decode();
}

async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  await body.dump().catch(() => undefined);
}

function toRefusal(error: unknown, timedOut: boolean): OutboundTargetRefused {
  const refusal = findOutboundRefusal(error);
  if (refusal) return refusal;
  if (timedOut || hasCode(error, TIMEOUT_CODES)) return new OutboundTargetRefused('timeout', { cause: error });
  return new OutboundTargetRefused('unreachable', { cause: error });
}

function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new TypeError(`OutboundTargetGuard: ${name} must be a positive number.`);
  return value;
}
