import type { Logger } from '../logging/index.js';
import type { CoordinationBackend, Unsubscribe } from './coordination.js';

/**
 * Keeps per-replica caches coherent: `announce(id)` forgets the entry here at once and tells every other
 * replica on `channel`; each replica's `forget` runs when the message arrives. A failed announcement is
 * logged and left to the cache's own TTL (the change itself is already stored).
 */
export class InvalidationChannel {
  private unsubscribe?: Unsubscribe;

  constructor(
    private readonly coordination: CoordinationBackend,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly forget: (id: string) => void,
  ) {}

  /** Starts receiving other replicas' announcements. */
  async start(): Promise<void> {
    this.unsubscribe = await this.coordination.subscribe(this.channel, this.forget);
  }

  /** Stops receiving. */
  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** Forgets `id` here and on every replica. */
  async announce(id: string): Promise<void> {
    this.forget(id);
    try {
      await this.coordination.publish(this.channel, id);
    } catch (error) {
      this.logger.warn('could not announce a change to other replicas', {
        channel: this.channel,
        id,
        error: String(error),
      });
    }
  }
}
