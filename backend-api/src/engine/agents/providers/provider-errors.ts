import { ProviderCallError, type ProviderCallErrorKind } from './llm-provider.types.js';

/** The error classes both vendors' SDKs (Stainless-generated) expose; adapters pass their SDK's. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status: number | undefined; headers: Headers | undefined };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** The classification of an HTTP status (exported for tests and for the stubs' documentation). */
export function kindOfStatus(status: number): ProviderCallErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401) return 'not_configured';
  // 408 (request timeout) and 409 (lock conflict) are transient: the SDKs retry them as well.
  if (status >= 500 || status === 408 || status === 409) return 'unavailable';
  if (status >= 400) return 'refused';
  return 'invalid_response';
}

/** `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in milliseconds. */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const millis = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const KIND_LABEL: Record<ProviderCallErrorKind, string> = {
  unavailable: 'unavailable',
  rate_limited: 'rate limited',
  refused: 'refused the request',
  invalid_response: 'returned an unusable response',
  not_configured: 'rejected the credential',
};

/**
 * Turns whatever an SDK call threw into what the adapter throws: the caller's abort reason when its signal
 * aborted (an abort is not a provider failure), a {@link ProviderCallError} already classified as is, and
 * every SDK error classified by {@link kindOfStatus} (connection failures and timeouts are `unavailable`).
 */
export function toProviderError(
  providerRef: string,
  error: unknown,
  sdk: SdkErrorClasses,
  signal?: AbortSignal,
): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof ProviderCallError) return error;
  if (error instanceof sdk.APIUserAbortError) return error;
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderCallError(providerRef, 'unavailable', `${providerRef} timed out: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof sdk.APIConnectionError) {
    return new ProviderCallError(providerRef, 'unavailable', `${providerRef} could not be reached: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof sdk.APIError) {
    const status = error.status;
    if (status === undefined) {
      // An error event inside a stream (no HTTP status): the vendor failed mid-answer.
      return new ProviderCallError(
        providerRef,
        'unavailable',
        `${providerRef} failed while streaming: ${error.message}`,
        { cause: error },
      );
    }
    const kind = kindOfStatus(status);
    const wait = kind === 'rate_limited' ? retryAfterMs(error.headers) : undefined;
    const options: { cause: unknown; status: number; retryAfterMs?: number } = { cause: error, status };
    if (wait !== undefined) options.retryAfterMs = wait;
    return new ProviderCallError(
      providerRef,
      kind,
      `${providerRef} ${KIND_LABEL[kind]} (HTTP ${status}): ${error.message}`,
      options,
    );
  }
  if (isDroppedConnection(error)) {
    // fetch's body reader fails with a bare TypeError when the connection drops after the headers (mid-stream):
    // the SDKs pass it through unwrapped.
    return new ProviderCallError(
      providerRef,
      'unavailable',
      `${providerRef}: the connection dropped while reading the answer: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ProviderCallError(
      providerRef,
      'invalid_response',
      `${providerRef} returned unparsable data: ${error.message}`,
      { cause: error },
    );
  }
  return error;
}

/** A network failure of `fetch` (undici): a `TypeError` such as `terminated` whose cause is a socket error. */
function isDroppedConnection(error: unknown): error is TypeError {
  if (!(error instanceof TypeError)) return false;
  if (error.message === 'terminated') return true;
  const code = (error.cause as { code?: unknown } | null | undefined)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('UND_ERR_') || ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED'].includes(code))
  );
}

/** Parses a JSON text the model produced; unparsable text is an `invalid_response`. */
export function parseModelJson(providerRef: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const preview = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    throw new ProviderCallError(
      providerRef,
      'invalid_response',
      `${providerRef} returned ${what} that is not valid JSON: ${JSON.stringify(preview)}`,
      {
        cause: error,
      },
    );
  }
}

/** Parses tool-call arguments; they must be a JSON object (an empty text means no arguments). */
export function parseToolArguments(providerRef: string, toolName: string, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = parseModelJson(providerRef, text, `arguments for tool "${toolName}"`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProviderCallError(
      providerRef,
      'invalid_response',
      `${providerRef} returned arguments for tool "${toolName}" that are not a JSON object`,
    );
  }
  return value as Record<string, unknown>;
}

/** A JSON Schema without the `$schema` keyword (vendors' schema dialects reject or ignore it). */
export function withoutSchemaKeyword(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
