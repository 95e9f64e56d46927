import { plainFailure, type RefusalContext } from '../ui/people-words';
import type { ResponseValidator } from './contracts';

/** Where an input failed its contract, as the backend reports it (a path, never the submitted value). */
export interface ApiInputProblem {
  path: string;
  expected: string;
}

/** Codes the client adds to the backend's own error codes for failures that have no envelope. */
export type ClientErrorCode = 'NETWORK' | 'BAD_RESPONSE' | 'HTTP_ERROR';

/** A failed API call: the backend's error envelope, or a client-side description when there is none. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    /** HTTP status, `0` when the backend could not be reached. */
    readonly status: number,
    /** The envelope's `code` (`UNAUTHENTICATED`, `VALIDATION_FAILED`, ...) or a {@link ClientErrorCode}. */
    readonly code: string,
    readonly details: {
      reason?: string;
      problems?: readonly ApiInputProblem[];
      requestId?: string;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message);
  }

  /** True when the session is missing or expired and the person must sign in again. */
  get isUnauthenticated(): boolean {
    return this.status === 401;
  }
}

/** Options of {@link requestJson}. */
export interface RequestJsonOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Extra request headers (for example the step-up proof `x-reauth-token`). */
  headers?: Record<string, string>;
  /** Serialized as JSON. */
  body?: unknown;
  /** Bearer access token of the signed-in person. */
  accessToken?: string | null;
  signal?: AbortSignal;
  /** Validates the whole success body (for example `z.object({ data: ... })`). */
  schema: ResponseValidator<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parseProblems(value: unknown): ApiInputProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item) =>
    isRecord(item) && typeof item.path === 'string' && typeof item.expected === 'string'
      ? [{ path: item.path, expected: item.expected }]
      : [],
  );
}

function parseRetryAfter(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** Turns a non-2xx answer into an {@link ApiError}, keeping the envelope's client-safe message when there is one. */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const retryAfterSeconds = parseRetryAfter(response);
  const envelope = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (!envelope || typeof envelope.message !== 'string' || typeof envelope.code !== 'string') {
    return new ApiError(`The server answered HTTP ${response.status}.`, response.status, 'HTTP_ERROR', {
      retryAfterSeconds,
    });
  }
  return new ApiError(envelope.message, response.status, envelope.code, {
    reason: optionalString(envelope.reason),
    problems: parseProblems(envelope.problems),
    requestId: optionalString(envelope.requestId),
    retryAfterSeconds,
  });
}

/**
 * Calls a same-origin JSON endpoint and validates the success body.
 *
 * @example
 * const { data } = await requestJson('/api/v1/auth/me', { accessToken, schema: MeResponseSchema });
 */
export async function requestJson<T>(path: string, options: RequestJsonOptions<T>): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.accessToken) headers.Authorization = `Bearer ${options.accessToken}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    // Cancellation is not an outage: let callers tell the two apart.
    if (options.signal?.aborted) throw error;
    throw new ApiError('The server could not be reached. Check your connection and try again.', 0, 'NETWORK');
  }

  if (!response.ok) throw await toApiError(response);

  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('The server sent a response that is not valid JSON.', response.status, 'BAD_RESPONSE');
  }
  const parsed = options.schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError('The server sent a response in an unexpected format.', response.status, 'BAD_RESPONSE');
  return parsed.data;
}

/** True for the rejection of a request cancelled through its `AbortSignal`. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * A message for any failure of an API call, suitable for an alert: in people's words (never the contract's),
 * naming the role needed when `context` says which.
 */
export function describeFailure(error: unknown, context: RefusalContext = {}): string {
  return plainFailure(error, context);
}
