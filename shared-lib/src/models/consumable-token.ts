/**
 * The engine's consumable tokens: opaque, short-lived, stored only as a hash and bound to whom they were
 * issued for. Each kind keeps its own prefix, so a token of one kind is never accepted as another.
 */
export enum CoreConsumableTokenTypes {
  /** A step-up proof from `POST /auth/reauth`, presented as `x-reauth-token` (key and client rotation). */
  REAUTH_PROOF = 'REAUTH_PROOF',
  /** The consent page's handle on a validated OAuth authorization request (`consent_token`). */
  OAUTH_CONSENT_REQUEST = 'OAUTH_CONSENT_REQUEST',
  /** One upload to one file field (`POST <recordUrl>/files/<field>/grant`), presented as `x-wildo-upload-grant`. */
  FILE_UPLOAD_GRANT = 'FILE_UPLOAD_GRANT',
  /** A link mailed to an address (`/verify-email#token=`): finishes a sign-up, or proves an account's address. */
  EMAIL_VERIFICATION = 'EMAIL_VERIFICATION',
}

/** How many times a consumable token can be used. */
export enum ConsumableToken_ConsumptionMode {
  /** Once: consuming is one atomic statement, so two concurrent uses cannot both succeed. */
  SINGLE_USE = 'SINGLE_USE',
}
