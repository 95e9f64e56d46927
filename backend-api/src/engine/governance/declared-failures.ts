import type { ResourceOperationFailures } from '@wildo/shared-lib';
import { FrameworkError } from '../errors/index.js';

/**
 * The declared failure `code` of an operation as the error to throw: `OPERATION_FAILED` (422) carrying the code and
 * the declared description, and nothing else. A code the operation does not declare is a programming error: it
 * becomes an internal error, whose caller sees the status only.
 *
 * @example
 * throw declaredFailure({ 'quote-expired': 'The quote has expired; ask for a new one.' }, 'quote-expired');
 */
export function declaredFailure(failures: ResourceOperationFailures | undefined, code: string): FrameworkError {
  const description = failures && Object.hasOwn(failures, code) ? failures[code] : undefined;
  if (description === undefined) {
    return new FrameworkError('INTERNAL', 'An internal error occurred.', {
      details: { undeclaredFailure: code, declared: Object.keys(failures ?? {}) },
    });
  }
  return new FrameworkError('OPERATION_FAILED', description, { failure: { code, description } });
}

/** A backend's answer that was not a success: its HTTP status and its body, parsed as JSON when it was JSON. */
export interface BackendAnswer {
  status: number;
  body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The strings a failure body commonly names its code with, in the order they are looked at. */
function candidateCodes(body: unknown): unknown[] {
  if (typeof body === 'string') return [body.trim()];
  if (!isRecord(body)) return [];
  const error = body.error;
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const type = typeof body.type === 'string' ? body.type : undefined;
  return [
    body.code,
    body.errorCode,
    body.failure,
    typeof error === 'string' ? error : isRecord(error) ? error.code : undefined,
    ...errors.map((entry) => (isRecord(entry) ? entry.code : entry)),
    // RFC 9457 problem details name the problem by a URI; its last segment may be the code.
    type,
    type?.split(/[/#]/).pop(),
  ];
}

/**
 * Maps a backend's non-2xx answer onto the operation's declared failures. When the body names a declared code
 * exactly, the answer is that failure: `OPERATION_FAILED` with the code and its declared description, never the
 * backend's own text. Anything else (no body, an unknown code, a code in another place) is `UPSTREAM_FAILED` (502)
 * carrying the backend's status only. Pure: it reads nothing but its arguments.
 *
 * The code is looked for, in order, at `code`, `errorCode`, `failure`, `error` (a string) or `error.code`,
 * `errors[i].code` (or `errors[i]` when a string), RFC 9457 `type` (whole, or its last path segment), and a body that
 * is a bare string.
 *
 * @param failures the operation's declared failures (`customOperations.<op>.failures`), or undefined when none
 * @param answer the backend's HTTP status and its parsed body (`undefined` or the raw text when it was not JSON)
 * @returns the error to throw from the operation's handler or connector
 *
 * @example
 * const error = failureFromBackendAnswer(operation.failures, { status: 422, body: { error: { code: 'quote-expired', message: 'Quote Q-1 is stale' } } });
 * // error.code === 'OPERATION_FAILED'; error.failure === { code: 'quote-expired', description: <the declared text> }
 */
export function failureFromBackendAnswer(
  failures: ResourceOperationFailures | undefined,
  answer: BackendAnswer,
): FrameworkError {
  if (failures) {
    for (const candidate of candidateCodes(answer.body)) {
      if (typeof candidate === 'string' && Object.hasOwn(failures, candidate))
        return declaredFailure(failures, candidate);
    }
  }
  return new FrameworkError('UPSTREAM_FAILED', `The backend answered with status ${answer.status}.`, {
    upstreamStatus: answer.status,
  });
}
