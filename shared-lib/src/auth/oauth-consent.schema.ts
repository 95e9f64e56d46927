import { z } from 'zod';

/** Identity scopes a delegated client may ask for; business access follows the person's roles, not scopes. */
export const OIDC_SUPPORTED_IDENTITY_SCOPES: readonly string[] = ['openid', 'profile', 'email'];

/**
 * `POST /api/v1/oauth/authorize` (called by the consent page with the signed-in person's token): the
 * authorization request exactly as the client sent it to the browser-facing authorization URL.
 */
export const OAuthAuthorizeRequestSchema = z.strictObject({
  response_type: z.string().max(64),
  client_id: z.string().min(1).max(2_048),
  redirect_uri: z.string().min(1).max(2_048),
  scope: z.string().max(1_024).optional(),
  state: z.string().max(1_024).optional(),
  code_challenge: z.string().max(256).optional(),
  code_challenge_method: z.string().max(16).optional(),
  resource: z.string().max(2_048).optional(),
  nonce: z.string().max(1_024).optional(),
});
export type OAuthAuthorizeRequest = z.infer<typeof OAuthAuthorizeRequestSchema>;

/** What the consent page shows the person: who asks, for which resource, with which scopes. */
export const OAuthConsentPromptSchema = z.object({
  kind: z.literal('consent'),
  consent_token: z.string(),
  client: z.object({ client_id: z.string(), client_name: z.string(), client_uri: z.string().optional() }),
  resource: z.string(),
  scopes: z.array(z.string()),
  expires_in: z.number().int(),
});
export type OAuthConsentPrompt = z.infer<typeof OAuthConsentPromptSchema>;

/** The browser goes to `redirect_to` (consent skipped, or an error the client must receive). */
export const OAuthRedirectSchema = z.object({ kind: z.literal('redirect'), redirect_to: z.string() });
export type OAuthRedirect = z.infer<typeof OAuthRedirectSchema>;

/** Response of `POST /api/v1/oauth/authorize`: `{ data: OAuthAuthorizeResponse }`. */
export const OAuthAuthorizeResponseSchema = z.discriminatedUnion('kind', [
  OAuthConsentPromptSchema,
  OAuthRedirectSchema,
]);
export type OAuthAuthorizeResponse = z.infer<typeof OAuthAuthorizeResponseSchema>;

/** `POST /api/v1/oauth/authorize/decision`; the response is `{ data: { redirect_to } }`. */
export const OAuthConsentDecisionRequestSchema = z.strictObject({
  consent_token: z.string().min(1).max(2_048),
  decision: z.enum(['approve', 'deny']),
  /** Remember an approval for later requests of the same client, resource and scopes (off unless ticked). */
  remember: z.boolean().default(false),
});
export type OAuthConsentDecisionRequest = z.input<typeof OAuthConsentDecisionRequestSchema>;

/** A remembered consent as its owner lists it at `GET /api/v1/oauth-consent-grants`. */
export const OAuthConsentGrantSchema = z.object({
  clientId: z.string().min(1).max(2_048),
  clientName: z.string().max(200),
  resource: z.string().min(1).max(2_048),
  scopes: z.array(z.string().max(64)).max(16),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type OAuthConsentGrant = z.infer<typeof OAuthConsentGrantSchema>;
