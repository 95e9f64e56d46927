import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/index.js';
import { ChannelHandlers, type ChannelSubscription } from './channel-handlers.js';
import {
  DEFAULT_COORDINATION_KEY_PREFIX,
  assertCost,
  assertCounterPolicy,
  assertTtl,
  closedCoordinationError,
  coordinationUnavailableError,
  describeError,
} from './coordination-arguments.js';
import type { CoordinationBackend, CounterDecision, CounterPolicy, Lease, Unsubscribe } from './coordination.js';
import { HeldLease, type LeaseStore } from './held-lease.js';
import {
  DEFAULT_REDIS_CONNECTION_TIMEOUTS,
  closeRedisConnection,
  failFastRedisOptions,
  firstConnectionSettled,
  openRedisConnection,
  type RedisConnectionTimeouts,
} from './redis-connection.js';
import { defineCoordinationScripts, type CoordinationScripts } from './redis-scripts.js';

/** Options of {@link RedisCoordination}. */
export interface RedisCoordinationOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Namespaces every key and channel. Default: `wildo:`. */
  keyPrefix?: string;
  logger: Logger;
  /** Name of the connections in `CLIENT LIST` (the subscriber's gets `:sub`). Default: `wildo-coordination`. */
  connectionName?: string;
  /** Overrides of {@link DEFAULT_REDIS_CONNECTION_TIMEOUTS}. */
  timeouts?: Partial<RedisConnectionTimeouts>;
}

/**
 * Coordination shared by every replica through Redis: one command connection (atomic Lua counters,
 * PUBLISH, leases with `SET NX PX` and compare-and-renew/delete) and one subscriber connection.
 * Every operation rejects within the configured timeouts when Redis is down.
 *
 * @example
 * const coordination = new RedisCoordination({ url: process.env.REDIS_URL!, logger });
 * const lease = await coordination.acquireLease('cron:nightly-reindex', 30_000);
 */
export class RedisCoordination implements CoordinationBackend, LeaseStore {
  readonly kind = 'redis' as const;
  private readonly commands: Redis & CoordinationScripts;
  private readonly subscriber: Redis;
  private readonly handlers: ChannelHandlers;
  private readonly logger: Logger;
  private readonly prefix: string;
  // SUBSCRIBE commands still in flight, so a second local handler waits for the first's.
  private readonly subscribing = new Map<string, Promise<unknown>>();
  // Counter key prefix per policy object, so a hot caller builds one string per call (the key).
  private readonly counterPrefixes = new WeakMap<
    CounterPolicy,
    { points: number; durationMs: number; prefix: string }
  >();
  private commandsStarting: Promise<void> | null;
  private subscriberStarting: Promise<void> | null;
  private closed = false;

  constructor(options: RedisCoordinationOptions) {
    const timeouts = { ...DEFAULT_REDIS_CONNECTION_TIMEOUTS, ...options.timeouts };
    const logger = options.logger;
    this.logger = logger;
    this.prefix = options.keyPrefix ?? DEFAULT_COORDINATION_KEY_PREFIX;
    this.handlers = new ChannelHandlers(logger);
    const name = options.connectionName ?? 'wildo-coordination';
    const commands = openRedisConnection(options.url, failFastRedisOptions(timeouts, name), logger);
    this.commands = defineCoordinationScripts(commands);
    this.subscriber = openRedisConnection(options.url, failFastRedisOptions(timeouts, `${name}:sub`), logger);
    this.subscriber.on('message', (channel: string, message: string) => this.onMessage(channel, message));
    this.commandsStarting = this.settleOnce(this.commands, timeouts.connectTimeoutMs, 'commands');
    this.subscriberStarting = this.settleOnce(this.subscriber, timeouts.connectTimeoutMs, 'subscriber');
  }

  /** Charges `cost` points to `key` under `policy` in one atomic script. */
  async consume(key: string, policy: CounterPolicy, cost = 1): Promise<CounterDecision> {
    const counterKey = this.counterPrefix(policy) + key;
    assertCost(cost);
    this.assertOpen();
    // Inlined rather than `await this.commandsReady()`: this is every request's path.
    if (this.commandsStarting !== null) await this.commandsStarting;
    let reply: [number, number, number];
    try {
      reply = await this.commands.wildoConsume(counterKey, policy.points, cost, policy.durationMs);
    } catch (error) {
      throw coordinationUnavailableError('consume', error);
    }
    return { allowed: reply[0] === 1, remaining: reply[1], resetMs: reply[2] };
  }

  /** Gives back up to `cost` points of `key`'s open window under `policy`, in one atomic script. */
  async refund(key: string, policy: CounterPolicy, cost = 1): Promise<void> {
    const counterKey = this.counterPrefix(policy) + key;
    assertCost(cost);
    await this.commandsReady();
    try {
      await this.commands.wildoRefund(counterKey, cost);
    } catch (error) {
      throw coordinationUnavailableError('refund', error);
    }
  }

  /** Publishes `message` on the namespaced `channel`. */
  async publish(channel: string, message: string): Promise<void> {
    await this.commandsReady();
    try {
      await this.commands.publish(this.channelName(channel), message);
    } catch (error) {
      throw coordinationUnavailableError('publish', error);
    }
  }

  /** Delivers later messages on `channel` to `handler`; the first local handler subscribes the connection. */
  async subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe> {
    this.assertOpen();
    if (this.subscriberStarting !== null) await this.subscriberStarting;
    const name = this.channelName(channel);
    const { subscription, first } = this.handlers.add(name, handler);
    try {
      await (first ? this.subscribeServer(name) : this.subscribing.get(name));
    } catch (error) {
      this.handlers.remove(subscription);
      throw coordinationUnavailableError('subscribe', error);
    }
    return () => this.unsubscribe(subscription);
  }

  /** Takes the lease with `SET NX PX` and a random holder token. */
  async acquireLease(name: string, ttlMs: number): Promise<Lease | null> {
    assertTtl(ttlMs);
    await this.commandsReady();
    const token = randomUUID();
    let reply: string | null;
    try {
      reply = await this.commands.set(this.leaseKey(name), token, 'PX', ttlMs, 'NX');
    } catch (error) {
      throw coordinationUnavailableError('acquireLease', error);
    }
    return reply === 'OK' ? new HeldLease(name, token, this) : null;
  }

  /** @internal Compare-and-renew for {@link HeldLease}. */
  async renewLease(name: string, token: string, ttlMs: number): Promise<boolean> {
    await this.commandsReady();
    try {
      return (await this.commands.wildoRenewLease(this.leaseKey(name), token, ttlMs)) === 1;
    } catch (error) {
      throw coordinationUnavailableError('renewLease', error);
    }
  }

  /** @internal Compare-and-delete for {@link HeldLease}. */
  async releaseLease(name: string, token: string): Promise<void> {
    await this.commandsReady();
    try {
      await this.commands.wildoReleaseLease(this.leaseKey(name), token);
    } catch (error) {
      throw coordinationUnavailableError('releaseLease', error);
    }
  }

  /** Drops local handlers and quits both connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await Promise.all([closeRedisConnection(this.commands), closeRedisConnection(this.subscriber)]);
  }

  private async unsubscribe(subscription: ChannelSubscription): Promise<void> {
    if (!this.handlers.remove(subscription) || this.closed) return;
    try {
      await this.subscriber.unsubscribe(subscription.channel);
    } catch (error) {
      // Local delivery has already stopped, which is what the caller asked for; a channel left
      // subscribed on the server only costs ignored messages.
      this.logger.warn('redis coordination unsubscribe failed', describeError(error));
    }
  }

  private subscribeServer(name: string): Promise<unknown> {
    const pending: Promise<unknown> = this.subscriber.subscribe(name).finally(() => {
      if (this.subscribing.get(name) === pending) this.subscribing.delete(name);
    });
    this.subscribing.set(name, pending);
    return pending;
  }

  private onMessage(channel: string, message: string): void {
    this.handlers.deliver(this.handlers.current(channel), message);
  }

  private async commandsReady(): Promise<void> {
    this.assertOpen();
    if (this.commandsStarting !== null) await this.commandsStarting;
  }

  private settleOnce(redis: Redis, boundMs: number, which: 'commands' | 'subscriber'): Promise<void> | null {
    const settled = firstConnectionSettled(redis, boundMs);
    void settled?.then(() => {
      if (which === 'commands') this.commandsStarting = null;
      else this.subscriberStarting = null;
    });
    return settled;
  }

  private counterPrefix(policy: CounterPolicy): string {
    const cached = this.counterPrefixes.get(policy);
    if (cached !== undefined && cached.points === policy.points && cached.durationMs === policy.durationMs) {
      return cached.prefix;
    }
    assertCounterPolicy(policy);
    const prefix = `${this.prefix}counter:${policy.points}/${policy.durationMs}:`;
    this.counterPrefixes.set(policy, { points: policy.points, durationMs: policy.durationMs, prefix });
    return prefix;
  }

  private channelName(channel: string): string {
    return `${this.prefix}channel:${channel}`;
  }

  private leaseKey(name: string): string {
    return `${this.prefix}lease:${name}`;
  }

  private assertOpen(): void {
    if (this.closed) throw closedCoordinationError();
  }
}
