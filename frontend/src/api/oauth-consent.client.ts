import type { OAuthAuthorizeRequest, OAuthAuthorizeResponse, OAuthConsentDecisionRequest } from '@wildo/shared-lib';
import { requestJson } from './api.client';
import { AuthorizeResponseSchema, DecisionResponseSchema } from './contracts';

/** `POST /api/v1/oauth/authorize`: either a consent prompt or a `redirect_to` the browser must follow. */
export async function submitAuthorizationRequest(
  request: OAuthAuthorizeRequest,
  accessToken: string,
  signal?: AbortSignal,
): Promise<OAuthAuthorizeResponse> {
  const body = await requestJson('/api/v1/oauth/authorize', {
    method: 'POST',
    body: request,
    accessToken,
    signal,
    schema: AuthorizeResponseSchema,
  });
  return body.data;
}

/**
 * `POST /api/v1/oauth/authorize/decision` (the guide's `oauthConsentDecision`): the person's answer to the
 * consent request behind `consentToken`, which is single-use; resolves to where the browser goes next. Only
 * an approval can be remembered.
 */
export async function oauthConsentDecision(
  consentToken: string,
  decision: OAuthConsentDecisionRequest['decision'],
  remember: boolean,
  accessToken: string,
): Promise<{ redirect_to: string }> {
  const request: OAuthConsentDecisionRequest = {
    consent_token: consentToken,
    decision,
    remember: decision === 'approve' && remember,
  };
  const body = await requestJson('/api/v1/oauth/authorize/decision', {
    method: 'POST',
    body: request,
    accessToken,
    schema: DecisionResponseSchema,
  });
  return body.data;
}
