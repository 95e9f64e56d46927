import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logging/index.js';
import { describeError } from './coordination-arguments.js';

/** Timeouts of a coordination connection, in milliseconds. */
export interface RedisConnectionTimeouts {
  /** Longest wait for a TCP connection (and for the first `ready` before commands are sent). */
  connectTimeoutMs: number;
  /** Longest wait for a reply to a command sent on a live connection. */
  commandTimeoutMs: number;
  /** Cap of the reconnect backoff. */
  maxReconnectDelayMs: number;
}

/** Defaults of {@link RedisConnectionTimeouts}: short, because callers decide fail-open/closed per request. */
export const DEFAULT_REDIS_CONNECTION_TIMEOUTS: RedisConnectionTimeouts = {
  connectTimeoutMs: 2_000,
  commandTimeoutMs: 1_000,
  maxReconnectDelayMs: 2_000,
};

/** ioredis options under which no command can hang: every failure rejects within a bounded time. */
export function failFastRedisOptions(timeouts: RedisConnectionTimeouts, connectionName: string): RedisOptions {
  return {
    connectionName,
    connectTimeout: timeouts.connectTimeoutMs,
    commandTimeout: timeouts.commandTimeoutMs,
    // No offline queue: while disconnected a command rejects at once instead of waiting for Redis.
    enableOfflineQueue: false,
    // Commands in flight when the socket drops reject on the first reconnect attempt and are not
    // replayed: replaying a SET NX or INCRBY whose reply was lost could apply it twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(times * 100, timeouts.maxReconnectDelayMs),
  };
}

/**
 * Opens a client and routes its events to `logger`: the first failure of an outage (an error, or a
 * dropped connection) at warn, repeats at debug, recovery at info. The error listener also keeps
 * ioredis from printing unhandled error events.
 */
export function openRedisConnection(url: string, options: RedisOptions, logger: Logger): Redis {
  const redis = new Redis(url, options);
  const fields = { connection: options.connectionName };
  let healthy = true;
  const failed = (message: string, details: Record<string, unknown>): void => {
    if (healthy) logger.warn(message, { ...fields, ...details });
    else logger.debug(message, { ...fields, ...details });
    healthy = false;
  };
  redis.on('error', (error: unknown) => failed('redis coordination connection failed', describeError(error)));
  redis.on('reconnecting', () => failed('redis coordination connection lost, reconnecting', {}));
  redis.on('ready', () => {
    if (!healthy) logger.info('redis coordination connection restored', fields);
    healthy = true;
  });
  return redis;
}

/**
 * Resolves once `redis` is first ready, fails to connect, or `boundMs` passes; `null` when it is
 * ready already. Without an offline queue, a command sent before the first `ready` would reject, so
 * callers wait for this once; afterwards commands fail fast during an outage.
 */
export function firstConnectionSettled(redis: Redis, boundMs: number): Promise<void> | null {
  if (redis.status === 'ready') return null;
  return new Promise((resolve) => {
    const settle = (): void => {
      clearTimeout(timer);
      redis.off('ready', settle).off('error', settle).off('end', settle);
      resolve();
    };
    const timer = setTimeout(settle, boundMs);
    timer.unref();
    redis.once('ready', settle).once('error', settle).once('end', settle);
  });
}

/** Quits `redis` politely when connected, otherwise drops it (and stops reconnecting). */
export async function closeRedisConnection(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // Fall through: a failed QUIT still has to stop the client.
    }
  }
  redis.disconnect();
}

/** The Redis URL without credentials or query, safe for a log line. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '[unparseable redis url]';
  }
}
