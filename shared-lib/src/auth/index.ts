export {
  InvitationStatusSchema,
  ReceivedInvitationSchema,
  SentInvitationSchema,
  type InvitationStatus,
  type ReceivedInvitation,
  type SentInvitation,
} from './invitations.schema.js';
export {
  OAuthAuthorizeRequestSchema,
  OAuthAuthorizeResponseSchema,
  OAuthConsentDecisionRequestSchema,
  OAuthConsentGrantSchema,
  OAuthConsentPromptSchema,
  OAuthRedirectSchema,
  OIDC_SUPPORTED_IDENTITY_SCOPES,
  type OAuthAuthorizeRequest,
  type OAuthAuthorizeResponse,
  type OAuthConsentDecisionRequest,
  type OAuthConsentGrant,
  type OAuthConsentPrompt,
  type OAuthRedirect,
} from './oauth-consent.schema.js';
