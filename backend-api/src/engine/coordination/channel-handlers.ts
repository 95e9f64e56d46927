import type { Logger } from '../logging/index.js';
import { describeError } from './coordination-arguments.js';

/** A handler registered on a channel; `active` turns false on unsubscribe. */
export interface ChannelSubscription {
  readonly channel: string;
  readonly handler: (message: string) => void;
  active: boolean;
}

/** No subscribers: shared so an unknown channel costs no allocation. */
const NONE: readonly ChannelSubscription[] = Object.freeze([]);

/**
 * The local handlers of each channel. Lists are copied on write, so a publisher can hold the list
 * it saw without copying it, and a handler that (un)subscribes during delivery changes nothing mid-loop.
 */
export class ChannelHandlers {
  private readonly channels = new Map<string, readonly ChannelSubscription[]>();

  constructor(private readonly logger: Logger) {}

  /** Registers `handler`; `first` tells whether the channel had no handler before. */
  add(channel: string, handler: (message: string) => void): { subscription: ChannelSubscription; first: boolean } {
    const subscription: ChannelSubscription = { channel, handler, active: true };
    const current = this.channels.get(channel) ?? NONE;
    this.channels.set(channel, [...current, subscription]);
    return { subscription, first: current.length === 0 };
  }

  /** Deactivates `subscription`; true when it was the channel's last handler. */
  remove(subscription: ChannelSubscription): boolean {
    if (!subscription.active) return false;
    subscription.active = false;
    const current = this.channels.get(subscription.channel) ?? NONE;
    const rest = current.filter((s) => s !== subscription);
    if (rest.length > 0) {
      this.channels.set(subscription.channel, rest);
      return false;
    }
    this.channels.delete(subscription.channel);
    return true;
  }

  /** The handlers of `channel` right now (do not mutate). */
  current(channel: string): readonly ChannelSubscription[] {
    return this.channels.get(channel) ?? NONE;
  }

  /** Calls every still-active handler of `subscriptions`; a throwing handler is logged and skipped. */
  deliver(subscriptions: readonly ChannelSubscription[], message: string): void {
    for (const subscription of subscriptions) {
      if (!subscription.active) continue;
      try {
        subscription.handler(message);
      } catch (error) {
        // The message itself stays out of the log: it may carry tenant data.
        this.logger.error('coordination subscriber failed', { channel: subscription.channel, ...describeError(error) });
      }
    }
  }

  /** Deactivates every handler. */
  clear(): void {
    for (const subscriptions of this.channels.values()) for (const s of subscriptions) s.active = false;
    this.channels.clear();
  }
}
