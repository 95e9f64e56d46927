import { isDeepStrictEqual } from 'node:util';
import type { CheckRecorder } from './check-recorder.js';
import type { HttpResult } from './http-client.js';
import { describeResponse, refusalMismatch, type ApiRecord, type ExpectedRefusal } from './responses.js';

/** Records a positive control: the call shape answers `status` for an allowed caller, and `extra` (what the answer or a read-back showed) holds. */
export function checkControl(
  recorder: CheckRecorder,
  label: string,
  res: HttpResult,
  status: number,
  extra = true,
): boolean {
  return recorder.check(label, res.status === status && extra, describeResponse(res));
}

/** Records a refusal: status, error code (and reason), nothing forbidden disclosed. */
export function checkRefusal(
  recorder: CheckRecorder,
  label: string,
  res: HttpResult,
  expected: ExpectedRefusal,
): boolean {
  const mismatch = refusalMismatch(res, expected);
  return recorder.check(label, mismatch === undefined, mismatch);
}

/**
 * Records that a stored record is exactly as it was (same version, same fields), as read back by an
 * allowed caller. The detail names the fields that differ, never their values.
 */
export function checkUnchanged(
  recorder: CheckRecorder,
  label: string,
  before: ApiRecord | undefined,
  after: ApiRecord | undefined,
): boolean {
  if (!before || !after)
    return recorder.check(
      label,
      false,
      after ? 'no snapshot to compare with' : 'the record can no longer be read by its owner',
    );
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !isDeepStrictEqual(before[key], after[key]),
  );
  return recorder.check(
    label,
    changed.length === 0,
    `fields changed: ${changed.join(', ')} (version ${before.version} -> ${after.version})`,
  );
}

/** Records that the number of stored records did not move across a refused write. */
export function checkCountUnchanged(recorder: CheckRecorder, label: string, before: number, after: number): boolean {
  return recorder.check(label, before === after, `${before} record(s) before, ${after} after`);
}
