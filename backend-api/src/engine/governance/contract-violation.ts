import { FrameworkError, MAX_REPORTED_PROBLEMS } from '../errors/index.js';
import type { ProjectionReport } from './projection.js';

/**
 * The error for a result that breaks its declared output contract (a required field left out, a declared field of
 * the wrong type): `CONTRACT_VIOLATION`, naming declared paths only (at most {@link MAX_REPORTED_PROBLEMS} of each),
 * never a value. Nothing of the result reaches the caller.
 *
 * @example
 * if (breachesContract(report)) throw contractViolation(report);
 */
export function contractViolation(report: ProjectionReport): FrameworkError {
  const missing = [...new Set(report.missing)].slice(0, MAX_REPORTED_PROBLEMS);
  const seen = new Set<string>();
  const invalid = report.invalid
    .filter(({ field }) => !seen.has(field) && seen.add(field))
    .slice(0, MAX_REPORTED_PROBLEMS);
  return new FrameworkError(
    'CONTRACT_VIOLATION',
    "The result does not match the operation's declared output contract, so it was withheld.",
    { violation: { missing, invalid } },
  );
}
