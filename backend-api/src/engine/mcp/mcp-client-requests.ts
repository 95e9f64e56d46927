import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CoordinationBackend } from '../coordination/index.js';
import { FrameworkError } from '../errors/index.js';

/**
 * What the server may ask of a client within a call on the handshake revisions: the requests of its own it sends on
 * the call's response stream, and the log notifications. Present only when the call's answer can stream.
 */
export interface McpClientChannel {
  /** Sends a request to the client and resolves with its answer (from whichever replica received it). */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Sends a notification to the client. */
  notify(method: string, params: Record<string, unknown>): void;
}

/** How long the server waits for a client's answer to one of its requests (a person may be answering). */
export const CLIENT_ANSWER_TIMEOUT_MS = 10 * 60 * 1000;

const replyChannel = (id: string) => `mcp:reply:${id}`;

/** The prefix of ids the server gives its own requests (the answer's id names the waiting call). */
export const SERVER_REQUEST_ID_PREFIX = 'wildo-srv-';

/**
 * Carries clients' answers to the server's own requests to the call waiting for them, on any replica: the answer is
 * POSTed like any message and published on the coordination store; the waiting call accepts it only from the
 * principal it asked.
 */
export class McpClientReplies {
  constructor(private readonly coordination: CoordinationBackend) {}

  /** Opens a request id and waits for its answer; `send` writes the request once the waiter listens. */
  async ask(
    owner: string,
    send: (id: string) => void,
    signal: AbortSignal | undefined,
  ): Promise<Record<string, unknown>> {
    const id = `${SERVER_REQUEST_ID_PREFIX}${randomUUID()}`;
    let settle!: (value: Record<string, unknown>) => void;
    let fail!: (error: unknown) => void;
    const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const unsubscribe = await this.coordination.subscribe(replyChannel(id), (raw) => {
      const reply = JSON.parse(raw) as {
        owner: string;
        result?: Record<string, unknown>;
        error?: { message?: string };
      };
      // An answer from anyone but the caller asked is ignored: a call's question is answered by its own client.
      if (reply.owner !== owner) return;
      if (reply.result) settle(reply.result);
      else fail(new FrameworkError('BAD_REQUEST', 'The client declined the server’s request.'));
    });
    const timer = setTimeout(
      () => fail(new FrameworkError('SERVICE_UNAVAILABLE', 'The client did not answer in time.')),
      CLIENT_ANSWER_TIMEOUT_MS,
    );
    const onAbort = () => fail(new FrameworkError('BAD_REQUEST', 'The call was closed before the client answered.'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      send(id);
      return await answered;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      await unsubscribe();
    }
  }

  /** Hands a client's answer (a JSON-RPC response message) to the call waiting for it, wherever it runs. */
  async deliver(owner: string, message: { id: unknown; result?: unknown; error?: unknown }): Promise<boolean> {
    if (typeof message.id !== 'string' || !message.id.startsWith(SERVER_REQUEST_ID_PREFIX) || message.id.length > 80)
      return false;
    await this.coordination.publish(
      replyChannel(message.id),
      JSON.stringify({
        owner,
        ...(message.result !== undefined ? { result: message.result } : { error: message.error }),
      }),
    );
    return true;
  }
}

/**
 * The handshake revisions' session id, without server state: the client's declared capabilities, signed, so a call
 * knows what the client may be asked (elicitation, sampling) on any replica.
 */
export class McpSessionCodec {
  constructor(private readonly key: Buffer) {}

  /** The session id for an `initialize` with these client capabilities. */
  mint(capabilities: unknown): string {
    const body = Buffer.from(JSON.stringify({ c: capabilities ?? {}, n: randomUUID() })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The capabilities a session id carries; undefined for a missing, forged or malformed one. */
  capabilities(sessionId: string | undefined): Record<string, unknown> | undefined {
    if (!sessionId || sessionId.length > 4096) return undefined;
    const [body, signature, extra] = sessionId.split('.');
    if (!body || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(body));
    const actual = Buffer.from(signature);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { c?: unknown };
      return typeof parsed.c === 'object' && parsed.c !== null ? (parsed.c as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** Whether a client declared a capability (`elicitation`, `sampling`). */
export function declaresCapability(capabilities: unknown, name: string): boolean {
  return typeof capabilities === 'object' && capabilities !== null && name in capabilities;
}
