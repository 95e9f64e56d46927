import { FrameworkError } from '../errors/index.js';
import type { CounterPolicy } from './coordination.js';

/** The key prefix of Redis coordination when none is given. */
export const DEFAULT_COORDINATION_KEY_PREFIX = 'wildo:';

function assertPositiveInteger(value: number, what: string): void {
  // Redis PX and INCRBY take integers only; holding the in-process backend to the same rule keeps
  // the two interchangeable.
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${what} must be a positive integer`);
}

/** Throws a `RangeError` unless `policy` has positive integer `points` and `durationMs`. */
export function assertCounterPolicy(policy: CounterPolicy): void {
  assertPositiveInteger(policy.points, 'CounterPolicy.points');
  assertPositiveInteger(policy.durationMs, 'CounterPolicy.durationMs');
}

/** Throws a `RangeError` unless `cost` is a positive integer. */
export function assertCost(cost: number): void {
  assertPositiveInteger(cost, 'consume cost');
}

/** Throws a `RangeError` unless `ttlMs` is a positive integer. */
export function assertTtl(ttlMs: number): void {
  assertPositiveInteger(ttlMs, 'lease ttlMs');
}

/** The error every operation rejects with once the backend is closed. */
export function closedCoordinationError(): FrameworkError {
  return new FrameworkError('SERVICE_UNAVAILABLE', 'The service is shutting down.', {
    details: { component: 'coordination', state: 'closed' },
  });
}

/** Wraps a storage failure: a 503 for clients, the cause and the operation for logs. */
export function coordinationUnavailableError(operation: string, cause: unknown): FrameworkError {
  return new FrameworkError('SERVICE_UNAVAILABLE', 'A coordination service is unavailable.', {
    cause,
    details: { component: 'coordination', operation },
  });
}

/** A compact, secret-free description of an error for a log line. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const code = (error as NodeJS.ErrnoException).code;
  // Node reports a refused dual-stack connect as an AggregateError with an empty message.
  const inner = error instanceof AggregateError ? error.errors.map((e: unknown) => String(e)).join('; ') : '';
  return { error: error.message || inner || error.name, ...(code === undefined ? {} : { code }) };
}
