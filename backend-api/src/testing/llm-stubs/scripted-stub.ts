import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stub received, as the test reads it back. */
export interface StubRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/messages`. */
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (`undefined` when there was none). */
  body: any;
}

/** A tool call a scripted model makes; `arguments` as an object (serialized) or as the exact JSON text. */
export interface StubToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** Token counts a reply reports; derived from the sizes of the request and the answer when absent. */
export interface StubUsage {
  inputTokens: number;
  outputTokens: number;
}

/** When a reply is sent: after `waitFor` settles and then `delayMs` more. */
export interface StubTiming {
  delayMs?: number;
  /** Holds the reply until this settles (a test's deferred: assert while the call is in flight, then release). */
  waitFor?: Promise<unknown>;
}

/** A model answer, rendered in the vendor's format (streamed when the request asks to stream). */
export interface StubMessageReply extends StubTiming {
  type: 'message';
  text?: string;
  /** How `text` is streamed; default one delta per word. */
  textDeltas?: string[];
  toolCalls?: StubToolCall[];
  /** Characters per streamed fragment of tool arguments (default 7, so arguments arrive in pieces). */
  argumentChunkSize?: number;
  /** The vendor's stop / finish reason; default `end_turn` / `stop`, or `tool_use` / `tool_calls` with tool calls. */
  stopReason?: string;
  /** OpenAI only: the `refusal` text of the message. */
  refusal?: string;
  usage?: StubUsage;
  /** Streaming only: end the response after the content, without stop reason or usage (a truncated stream). */
  truncate?: boolean;
  /**
   * Streaming only: send the events up to and including the first content delta (text or tool arguments), then
   * hold the rest until this settles (to abort or cancel a call mid-stream). Nothing more is sent once the
   * client has gone.
   */
  holdAfterFirstDelta?: Promise<unknown>;
}

/** An HTTP error in the vendor's error format. */
export interface StubErrorReply extends StubTiming {
  type: 'error';
  status: number;
  message?: string;
  /** The vendor's error type (`rate_limit_error`, `invalid_request_error`, ...); derived from the status when absent. */
  errorType?: string;
  headers?: Record<string, string>;
}

/** Any bytes (malformed JSON, an unexpected content type). */
export interface StubRawReply extends StubTiming {
  type: 'raw';
  status?: number;
  contentType?: string;
  body: string;
  headers?: Record<string, string>;
}

/** OpenAI Images: the images (base64) or how many placeholder PNGs to return (default: the request's `n`). */
export interface StubImagesReply extends StubTiming {
  type: 'images';
  images?: readonly { base64: string }[];
  count?: number;
  outputFormat?: 'png' | 'jpeg' | 'webp';
  usage?: StubUsage;
}

/** OpenAI Embeddings: the vectors, or deterministic vectors of `dims` (default 8) derived from each text. */
export interface StubEmbeddingsReply extends StubTiming {
  type: 'embeddings';
  vectors?: readonly (readonly number[])[];
  dims?: number;
  /** Return the items in reverse order (their `index` still says where each belongs). */
  reverseOrder?: boolean;
  usage?: { inputTokens: number };
}

/** Every scripted reply. */
export type StubReply = StubMessageReply | StubErrorReply | StubRawReply | StubImagesReply | StubEmbeddingsReply;
/** A reply, or a function of the request that returns one (to echo or branch). */
export type StubReplyScript = StubReply | ((request: StubRequest) => StubReply);

/** A 1×1 transparent PNG, the placeholder image of the Images stub. */
export const STUB_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A text answer. */
export function textReply(text: string, options: Omit<StubMessageReply, 'type' | 'text'> = {}): StubMessageReply {
  return { type: 'message', text, ...options };
}

/** An answer that calls tools (optionally after some text). */
export function toolCallsReply(
  toolCalls: StubToolCall[],
  options: Omit<StubMessageReply, 'type' | 'toolCalls'> = {},
): StubMessageReply {
  return { type: 'message', toolCalls, ...options };
}

/** A structured-output answer: the JSON document as the message text. */
export function structuredReply(
  value: unknown,
  options: Omit<StubMessageReply, 'type' | 'text'> = {},
): StubMessageReply {
  return { type: 'message', text: JSON.stringify(value), ...options };
}

/** An HTTP error. */
export function errorReply(
  status: number,
  message?: string,
  options: Omit<StubErrorReply, 'type' | 'status' | 'message'> = {},
): StubErrorReply {
  return { type: 'error', status, ...(message !== undefined ? { message } : {}), ...options };
}

/** A promise the test settles by hand: hold replies with `waitFor`, then `resolve()`. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A rough token count (4 characters a token), for replies that do not script usage. */
export function approximateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Deterministic unit vector of `dims` for a text (equal texts, equal vectors; values exact in float32). */
export function deterministicVector(text: string, dims: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dims; block += 1) {
    const digest = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && values.length < dims; i += 2)
      values.push(digest.readUInt16BE(i) / 32_768 - 1);
  }
  const norm = Math.hypot(...values) || 1;
  return values.map((value) => Math.fround(value / norm));
}

/** Splits text into word-sized deltas (each word with its trailing spaces). */
export function wordDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

/** Splits a string into pieces of `size` characters. */
export function chunk(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += Math.max(1, size))
    pieces.push(text.slice(start, start + Math.max(1, size)));
  return pieces;
}

/** Writes one server-sent event. */
export function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/** One server-sent event to write. */
export interface SseFrame {
  data: unknown;
  event?: string;
}

/**
 * Writes `frames` in order, holding after frame number `hold.after` (0-based) until `hold.until` settles; stops
 * writing when the client has gone. Does not end the response.
 */
export async function writeSseFrames(
  res: ServerResponse,
  frames: readonly SseFrame[],
  hold?: { after: number; until: Promise<unknown> },
): Promise<void> {
  let gone = res.destroyed;
  const onClose = () => {
    gone = true;
  };
  res.once('close', onClose);
  try {
    for (const [index, frame] of frames.entries()) {
      if (gone || res.destroyed) return;
      writeSse(res, frame.data, frame.event);
      if (hold && index === hold.after) await hold.until.catch(() => undefined);
    }
  } finally {
    res.off('close', onClose);
  }
}

const sleep = (ms: number, timers: Set<NodeJS.Timeout>) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });

/**
 * A local HTTP server answering from a FIFO queue of scripted replies, recording every request. Subclasses
 * speak one vendor's API. Start on port 0 (`start()`), `close()` when done.
 */
export abstract class ScriptedStubServer {
  /** Every request received, in arrival order. */
  readonly requests: StubRequest[] = [];
  readonly #queue: StubReplyScript[] = [];
  #fallback: ((request: StubRequest) => StubReply) | undefined;
  #server: Server | undefined;
  #origin = '';
  #inFlight = 0;
  #maxInFlight = 0;
  #sequence = 0;
  readonly #countWaiters: { count: number; resolve: () => void }[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return this.#origin;
  }

  /** The base URL to give the vendor's SDK. */
  abstract get baseURL(): string;

  /** Requests being answered right now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most requests that were being answered at once. */
  get maxInFlight(): number {
    return this.#maxInFlight;
  }

  /** Scripted replies not yet used. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Appends replies to the queue; each request takes the oldest. */
  enqueue(...replies: StubReplyScript[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** The reply used when the queue is empty (default: an HTTP 500 saying nothing was scripted). */
  setFallback(fallback: ((request: StubRequest) => StubReply) | undefined): this {
    this.#fallback = fallback;
    return this;
  }

  /** Settles once `count` requests in total have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#countWaiters.push({ count, resolve }));
  }

  /** Forgets recorded requests, queued replies and the in-flight maximum. */
  reset(): void {
    this.requests.length = 0;
    this.#queue.length = 0;
    this.#maxInFlight = this.#inFlight;
    this.#fallback = undefined;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      void this.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
          res.end(JSON.stringify({ error: { message: `stub failure: ${String(error)}` } }));
        } else {
          res.destroy();
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening and drops open connections (held replies are abandoned). */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** A fresh id for a rendered object (`msg_stub_1`, ...). */
  protected nextId(prefix: string): string {
    this.#sequence += 1;
    return `${prefix}${this.#sequence}`;
  }

  /** Why `reply` cannot answer this path (a message for the test), or `undefined` when it fits. */
  protected abstract misfit(path: string, reply: StubReply): string | undefined;

  /** The paths this stub serves. */
  protected abstract serves(method: string, path: string): boolean;

  /** Writes `reply` in the vendor's format (a streamed reply may settle after the last event is written). */
  protected abstract render(request: StubRequest, reply: StubReply, res: ServerResponse): void | Promise<void>;

  /** Writes a vendor-format error. */
  protected abstract renderError(
    res: ServerResponse,
    status: number,
    message: string,
    errorType: string | undefined,
    headers: Record<string, string>,
  ): void;

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const piece of req) chunks.push(piece as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const request: StubRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, headers, body };
    this.requests.push(request);
    this.#inFlight += 1;
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight);
    res.once('close', () => {
      this.#inFlight -= 1;
    });
    for (const waiter of [...this.#countWaiters]) {
      if (this.requests.length >= waiter.count) {
        this.#countWaiters.splice(this.#countWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }

    if (!this.serves(request.method, request.path)) {
      this.renderError(res, 404, `stub: ${request.method} ${request.path} is not served`, 'not_found_error', {
        'x-should-retry': 'false',
      });
      return;
    }
    const script = this.#queue.shift();
    const reply =
      script === undefined ? this.#fallback?.(request) : typeof script === 'function' ? script(request) : script;
    if (!reply) {
      this.renderError(
        res,
        500,
        `stub: no scripted reply for ${request.method} ${request.path} (enqueue one)`,
        'api_error',
        { 'x-should-retry': 'false' },
      );
      return;
    }
    // Errors and raw bytes answer any path; only vendor-format replies must fit the endpoint.
    const misfit = reply.type === 'error' || reply.type === 'raw' ? undefined : this.misfit(request.path, reply);
    if (misfit) {
      this.renderError(res, 500, `stub: ${misfit}`, 'api_error', { 'x-should-retry': 'false' });
      return;
    }
    if (reply.waitFor) await reply.waitFor.catch(() => undefined);
    if (reply.delayMs !== undefined && reply.delayMs > 0) await sleep(reply.delayMs, this.#timers);
    if (res.destroyed || res.writableEnded) return;
    if (reply.type === 'error') {
      this.renderError(
        res,
        reply.status,
        reply.message ?? `scripted error ${reply.status}`,
        reply.errorType,
        reply.headers ?? {},
      );
      return;
    }
    if (reply.type === 'raw') {
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers });
      res.end(reply.body);
      return;
    }
    await this.render(request, reply, res);
  }
}
