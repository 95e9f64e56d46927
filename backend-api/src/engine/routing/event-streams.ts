import type { Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';

/** Bounds of every server-sent event stream (A2A streams and resubscriptions, MCP progress, agent turns). */
export interface EventStreamSettings {
  /** Streams one principal may hold open at once on a replica; one more is refused (429). */
  maxPerPrincipal: number;
  /** A comment line (`: keep-alive`) is written this often, so proxies and clients keep the stream open. */
  heartbeatMs: number;
  /** A stream with no event for this long is closed (what it waited for is not coming; the client may reattach). */
  idleTimeoutMs: number;
}

/** Defaults: 10 streams per principal, a heartbeat every 15 s, closed after 5 minutes without an event. */
export const DEFAULT_EVENT_STREAM_SETTINGS: EventStreamSettings = {
  maxPerPrincipal: 10,
  heartbeatMs: 15_000,
  idleTimeoutMs: 5 * 60_000,
};

/** Keeps a stream alive and watches it for idleness: `touch` after each event, `stop` when it ends. */
export interface StreamKeepAlive {
  touch(): void;
  stop(): void;
}

/** Whose streams count together: a person, or one machine client. */
export function streamOwnerOf(principal: AuthenticatedPrincipal): string {
  return principal.kind === 'user' ? `user:${principal.userId}` : `client:${principal.clientId}`;
}

/**
 * The server-sent event streams of one backend: a count of open streams per principal (on this replica: a stream
 * holds a connection here), and the heartbeat and idle timeout each stream gets.
 *
 * @example
 * const release = streams.acquire(streamOwnerOf(principal)); // or 429
 * const alive = streams.keepAlive(res, () => abort.abort());
 * res.on('close', () => { alive.stop(); release(); });
 */
export class EventStreams {
  private readonly open = new Map<string, number>();
  /** Every stream watched by {@link keepAlive} now, with what ends it early. */
  private readonly live = new Map<Response, () => void>();
  private accepting = true;

  constructor(readonly settings: EventStreamSettings = DEFAULT_EVENT_STREAM_SETTINGS) {}

  /** Takes a stream slot for `owner`; the returned function gives it back (once). Throws `RATE_LIMITED` when full. */
  acquire(owner: string): () => void {
    if (!this.accepting)
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'This server is shutting down; retry against another one.', {
        retryAfterSeconds: 1,
      });
    const count = this.open.get(owner) ?? 0;
    if (count >= this.settings.maxPerPrincipal) {
      throw new FrameworkError(
        'RATE_LIMITED',
        `At most ${this.settings.maxPerPrincipal} streams may be open at once; close one first.`,
        { reason: 'rate_limit_exceeded', retryAfterSeconds: 1 },
      );
    }
    this.open.set(owner, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(owner) ?? 1) - 1;
      if (left > 0) this.open.set(owner, left);
      else this.open.delete(owner);
    };
  }

  /** Streams `owner` holds open now. */
  openFor(owner: string): number {
    return this.open.get(owner) ?? 0;
  }

  /**
   * Writes a heartbeat comment every `heartbeatMs`, and ends the stream (calling `onIdle` first) once it has had no
   * event for `idleTimeoutMs`. Stops by itself when the response closes.
   */
  keepAlive(res: Response, onIdle: () => void): StreamKeepAlive {
    const { heartbeatMs, idleTimeoutMs } = this.settings;
    let lastEvent = Date.now();
    const heartbeat = setInterval(() => {
      if (!res.writableEnded && !res.destroyed) res.write(': keep-alive\n\n');
    }, heartbeatMs);
    let idle: NodeJS.Timeout | undefined;
    const arm = (delayMs: number) => {
      idle = setTimeout(() => {
        const quiet = Date.now() - lastEvent;
        if (quiet < idleTimeoutMs) return arm(idleTimeoutMs - quiet);
        stop();
        onIdle();
        if (!res.writableEnded) res.end();
      }, delayMs);
    };
    const stop = () => {
      clearInterval(heartbeat);
      clearTimeout(idle);
      this.live.delete(res);
    };
    arm(idleTimeoutMs);
    this.live.set(res, onIdle);
    res.once('close', stop);
    return {
      touch: () => {
        lastEvent = Date.now();
      },
      stop,
    };
  }

  /** Refuses every new stream from now on (503): the backend is shutting down. */
  stopAccepting(): void {
    this.accepting = false;
  }

  /** Streams open now on this backend. */
  get size(): number {
    return this.live.size;
  }

  /**
   * Ends every open stream with a last event (`event: <name>` with `data` as JSON), stopping what feeds it first
   * (its `onIdle`): at shutdown, once the drain bound is reached, so a client learns why its stream ended.
   */
  endAll(name: string, data: unknown): number {
    const ending = [...this.live];
    for (const [res, onEnd] of ending) {
      this.live.delete(res);
      if (!res.writableEnded && !res.destroyed) res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      onEnd();
      if (!res.writableEnded) res.end();
    }
    return ending.length;
  }
}
