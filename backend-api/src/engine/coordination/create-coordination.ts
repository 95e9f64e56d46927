import type { Logger } from '../logging/index.js';
import type { CoordinationBackend } from './coordination.js';
import { InProcessCoordination } from './in-process-coordination.js';
import { RedisCoordination } from './redis-coordination.js';
import { redactRedisUrl } from './redis-connection.js';

/** Options of {@link createCoordination}. */
export interface CoordinationOptions {
  /** Redis to share state between replicas; absent or empty means in-process. */
  redisUrl?: string | undefined;
  /** Namespaces Redis keys and channels. Default: `wildo:`. Ignored in-process. */
  keyPrefix?: string | undefined;
  logger: Logger;
}

/**
 * Chooses the coordination backend: Redis when `redisUrl` is set, in-process otherwise, and logs
 * which one (the URL without its credentials).
 *
 * @example
 * const coordination = createCoordination({ redisUrl: process.env.REDIS_URL, logger });
 */
export function createCoordination(options: CoordinationOptions): CoordinationBackend {
  const { redisUrl, keyPrefix, logger } = options;
  if (redisUrl === undefined || redisUrl === '') {
    logger.info('coordination backend selected', {
      kind: 'in-process',
      note: 'rate limits, pub/sub and leases are local to this process; set REDIS_URL to share them between replicas',
    });
    return new InProcessCoordination({ logger });
  }
  logger.info('coordination backend selected', { kind: 'redis', redis: redactRedisUrl(redisUrl) });
  return new RedisCoordination({ url: redisUrl, logger, ...(keyPrefix === undefined ? {} : { keyPrefix }) });
}
