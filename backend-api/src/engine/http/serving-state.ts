import type { Server } from 'node:http';
import type { RequestHandler } from 'express';
import type { EventStreams } from '../routing/index.js';

/** The last event of a stream ended by a shutdown: the client reconnects (another replica answers). */
export const SHUTDOWN_STREAM_EVENT = 'shutdown';

/** How a drain went: what was still open at the bound and had to be ended. */
export interface DrainOutcome {
  /** Milliseconds from the start of the drain until every request and stream had ended. */
  durationMs: number;
  /** Streams ended with the shutdown event at the bound (0 when every one finished by itself). */
  streamsEnded: number;
  /** Requests other than streams still running at the bound, whose connections were closed. */
  requestsCut: number;
}

/**
 * Whether this backend is serving or draining, and the requests in flight: readiness says `draining` once a
 * shutdown starts, responses then close their connections, and the drain waits for in-flight requests and streams
 * up to a bound before ending the streams with a last event and closing what is left.
 */
export class ServingState {
  private drainingSince: number | undefined;
  private inFlight = 0;
  private settled: (() => void) | undefined;
  private streams: EventStreams | undefined;

  /** Whether a shutdown has started. */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Requests being answered now (streams included). */
  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** The backend's event streams, ended at the bound of a drain. */
  attachStreams(streams: EventStreams): void {
    this.streams = streams;
  }

  /** Counts requests in flight; while draining, answers close their connection so clients move to another replica. */
  readonly middleware: RequestHandler = (_req, res, next) => {
    this.inFlight += 1;
    if (this.draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.settled?.();
    });
    next();
  };

  /**
   * Stops `servers` accepting connections and waits for the requests and streams in flight, at most `boundMs`; then
   * ends the streams still open with a `shutdown` event and closes the remaining connections.
   */
  async drain(servers: readonly Server[], boundMs: number): Promise<DrainOutcome> {
    const started = Date.now();
    this.drainingSince ??= started;
    this.streams?.stopAccepting();
    const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const server of servers) server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      new Promise<boolean>((resolve) => {
        if (this.inFlight === 0) return resolve(true);
        this.settled = () => resolve(true);
      }),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), boundMs);
      }),
    ]);
    clearTimeout(timer);
    this.settled = undefined;
    let streamsEnded = 0;
    let requestsCut = 0;
    if (!inTime) {
      streamsEnded =
        this.streams?.endAll(SHUTDOWN_STREAM_EVENT, { reason: 'server_shutting_down', retryAfterSeconds: 1 }) ?? 0;
      requestsCut = Math.max(0, this.inFlight - streamsEnded);
      // Written events reach the socket before it is closed.
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (const server of servers) server.closeAllConnections();
    }
    await Promise.all(closed);
    return { durationMs: Date.now() - started, streamsEnded, requestsCut };
  }
}
