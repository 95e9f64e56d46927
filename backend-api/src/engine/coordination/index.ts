export type { CoordinationBackend, CounterDecision, CounterPolicy, Lease, Unsubscribe } from './coordination.js';
export { DEFAULT_COORDINATION_KEY_PREFIX } from './coordination-arguments.js';
export { createCoordination, type CoordinationOptions } from './create-coordination.js';
export { FixedWindowCounters, monotonicClock, type Clock } from './fixed-window-counters.js';
export { InProcessCoordination, type InProcessCoordinationOptions } from './in-process-coordination.js';
export { RedisCoordination, type RedisCoordinationOptions } from './redis-coordination.js';
export { DEFAULT_REDIS_CONNECTION_TIMEOUTS, redactRedisUrl, type RedisConnectionTimeouts } from './redis-connection.js';
export { InvalidationChannel } from './invalidation-channel.js';
