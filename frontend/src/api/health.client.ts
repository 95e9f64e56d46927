/** Path of the backend health endpoint (proxied to the backend by the Vite dev server). */
export const HEALTH_PATH = '/api/v1/health';

/** Health report as returned by the backend under `data`. */
export interface HealthStatus {
  status: string;
  version?: string;
}

/** Failure to obtain a usable health report: network error, non-2xx response or malformed body. */
export class HealthError extends Error {
  override readonly name = 'HealthError';

  constructor(
    message: string,
    /** HTTP status when the backend answered, `undefined` when it could not be reached. */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Narrows an untrusted response body to `{ data: { status, version? } }`, or returns `undefined`. */
export function parseHealthBody(body: unknown): HealthStatus | undefined {
  if (!isRecord(body) || !isRecord(body.data)) return undefined;
  const { status, version } = body.data;
  if (typeof status !== 'string' || status.length === 0) return undefined;
  if (version === undefined) return { status };
  if (typeof version !== 'string') return undefined;
  return { status, version };
}

/** Fetches `GET /api/v1/health`; rejects with `HealthError` unless the answer is a 2xx with a well-formed body. */
export async function fetchHealth(signal?: AbortSignal): Promise<HealthStatus> {
  let response: Response;
  try {
    response = await fetch(HEALTH_PATH, { headers: { Accept: 'application/json' }, signal: signal ?? null });
  } catch (error) {
    // Let cancellation through untouched so callers can tell it apart from an outage.
    if (signal?.aborted) throw error;
    throw new HealthError('The backend could not be reached.');
  }

  if (!response.ok) {
    throw new HealthError(`The backend answered HTTP ${response.status}.`, response.status);
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new HealthError('The backend sent a response that is not valid JSON.', response.status);
  }

  const health = parseHealthBody(body);
  if (!health) {
    throw new HealthError('The backend sent a health report in an unexpected format.', response.status);
  }
  return health;
}
