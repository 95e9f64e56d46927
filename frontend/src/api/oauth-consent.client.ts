import type { OAuthAuthorizeRequest, OAuthAuthorizeResponse, OAuthConsentDecisionRequest } from '@wildo/shared-lib';
import { requestJson } from './api.client';
import { AuthorizeResponseSchema, DecisionResponseSchema } from './contracts';

/** `POST /api/v1/oauth/authorize`: either a consent prompt or a `redirect_to` the browser must follow. */
export async function submitAuthorizationRequest(
  request: OAuthAuthorizeRequest,
  accessToken: string,
  signal?: AbortSignal,
): Promise<OAuthAuthorizeResponse> {
  const body = await requestJson('/api/v1/oauth/authorize', { method: 'POST', body: request, accessToken, signal, schema: AuthorizeResponseSchema });
  return body.data;
}

/** `POST /api/v1/oauth/authorize/decision`: the person's answer; resolves to where the browser goes next. */
export async function submitConsentDecision(decision: OAuthConsentDecisionRequest, accessToken: string): Promise<{ redirect_to: string }> {
  const body = await requestJson('/api/v1/oauth/authorize/decision', { method: 'POST', body: decision, accessToken, schema: DecisionResponseSchema });
  return body.data;
}
