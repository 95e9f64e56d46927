import type { Redis } from 'ioredis';

/**
 * Fixed window in one atomic step. KEYS[1] counter; ARGV points, cost, durationMs.
 * Returns {allowed (1/0), remaining, resetMs}. A refusal writes nothing; a key without a TTL (never
 * written by us) is treated as an ended window and overwritten.
 */
const CONSUME_LUA = `
local points = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
local used = 0
if ttl > 0 then
  used = tonumber(redis.call('GET', KEYS[1]))
else
  ttl = tonumber(ARGV[3])
end
if used + cost > points then
  return {0, points - used, ttl}
end
if used == 0 then
  redis.call('SET', KEYS[1], cost, 'PX', ttl)
else
  redis.call('INCRBY', KEYS[1], cost)
end
return {1, points - used - cost, ttl}
`;

/**
 * Gives back points of an open window. KEYS[1] counter; ARGV cost. A window emptied this way is deleted; a key
 * without a TTL is not a window of ours and is left alone. Returns the points still used.
 */
const REFUND_LUA = `
if redis.call('PTTL', KEYS[1]) <= 0 then
  return 0
end
local left = tonumber(redis.call('GET', KEYS[1])) - tonumber(ARGV[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('DECRBY', KEYS[1], ARGV[1])
return left
`;

/** Extends the lease only for its holder. KEYS[1] lease; ARGV token, ttlMs. Returns 1 or 0. */
const RENEW_LEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

/** Deletes the lease only for its holder. KEYS[1] lease; ARGV token. Returns 1 or 0. */
const RELEASE_LEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/** The commands {@link defineCoordinationScripts} adds to a client (EVALSHA, falling back to EVAL). */
export interface CoordinationScripts {
  wildoConsume(key: string, points: number, cost: number, durationMs: number): Promise<[number, number, number]>;
  wildoRefund(key: string, cost: number): Promise<number>;
  wildoRenewLease(key: string, token: string, ttlMs: number): Promise<number>;
  wildoReleaseLease(key: string, token: string): Promise<number>;
}

/** Registers the coordination Lua scripts as commands on `redis`. */
export function defineCoordinationScripts(redis: Redis): Redis & CoordinationScripts {
  redis.defineCommand('wildoConsume', { numberOfKeys: 1, lua: CONSUME_LUA });
  redis.defineCommand('wildoRefund', { numberOfKeys: 1, lua: REFUND_LUA });
  redis.defineCommand('wildoRenewLease', { numberOfKeys: 1, lua: RENEW_LEASE_LUA });
  redis.defineCommand('wildoReleaseLease', { numberOfKeys: 1, lua: RELEASE_LEASE_LUA });
  return redis as Redis & CoordinationScripts;
}
