import { FrameworkError } from '../../errors/index.js';
import { findOutboundRefusal, type OutboundFetcher } from '../../net/index.js';
import type { RestCallScope, RestRequestPlan } from './rest-request.js';

/** A backend's answer with a status outside 2xx, for the operation's failure mapping. */
export interface BackendFailure {
  status: number;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
}

/** Turns a non-2xx answer into the error the caller receives (a declared failure, or the status only). */
export type FailureMapper = (failure: BackendFailure) => FrameworkError;

/** Default bound of one REST call. */
export const DEFAULT_REST_TIMEOUT_MS = 10_000;

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A transport failure as the caller sees it: what happened, never where (no host, no address). */
function transportError(error: unknown): FrameworkError {
  const refusal = findOutboundRefusal(error);
  if (refusal?.reason === 'timeout')
    return new FrameworkError('SERVICE_UNAVAILABLE', 'The backend did not answer in time.', { cause: error });
  if (refusal?.reason === 'too_large')
    return new FrameworkError('SERVICE_UNAVAILABLE', 'The backend answered with more data than allowed.', {
      cause: error,
    });
  return new FrameworkError('SERVICE_UNAVAILABLE', 'The backend could not be reached.', { cause: error });
}

/**
 * Sends one REST call through the outbound-target guard (its address, time and size rules) and returns the parsed
 * JSON answer of a 2xx response. Any other status goes through `failures` (the backend's own words never reach the
 * caller); a 2xx whose body is not JSON is a backend failure.
 */
export async function callRest(
  plan: RestRequestPlan,
  input: unknown,
  scope: RestCallScope,
  fetcher: OutboundFetcher,
  failures: FailureMapper,
): Promise<unknown> {
  const request = plan.build(input, scope);
  let response;
  try {
    response = await fetcher.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      timeoutMs: plan.timeoutMs ?? DEFAULT_REST_TIMEOUT_MS,
      ...(plan.maxBytes === undefined ? {} : { maxBytes: plan.maxBytes }),
      acceptStatus: () => true,
    });
  } catch (error) {
    throw transportError(error);
  }
  const body = parseJson(response.text);
  if (response.status < 200 || response.status >= 300) throw failures({ status: response.status, body });
  if (body === undefined)
    throw new FrameworkError('SERVICE_UNAVAILABLE', 'The backend answered with a body that is not JSON.', {
      details: { status: response.status },
    });
  return body;
}

/** A backend's refusal that names no declared failure: the status only, never the backend's words. */
export function statusOnlyFailure({ status }: BackendFailure): FrameworkError {
  return new FrameworkError('SERVICE_UNAVAILABLE', `The backend answered with status ${status}.`, {
    details: { status },
  });
}
