/**
 * OAuth protocol errors (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707, RFC 9207): each class carries its
 * static `errorCode`; `description` is client-safe and never echoes submitted secrets.
 */
export class OAuthError extends Error {
  static readonly errorCode: string = 'server_error';
  override readonly name = 'OAuthError';
  constructor(
    readonly errorCode: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }

  /** The JSON body of a token or registration endpoint error. */
  toResponseBody(): { error: string; error_description: string } {
    return { error: this.errorCode, error_description: this.description };
  }
}

function oauthErrorClass(code: string, status = 400) {
  return class extends OAuthError {
    static override readonly errorCode = code;
    constructor(description: string) {
      super(code, description, status);
    }
  };
}

/** A required parameter is missing, repeated or malformed. */
export class InvalidRequestError extends oauthErrorClass('invalid_request') {}
/** Client authentication failed (unknown client, wrong secret, unsupported method). */
export class InvalidClientError extends oauthErrorClass('invalid_client', 401) {}
/** The code, verifier or redirect does not match what was authorized. */
export class InvalidGrantError extends oauthErrorClass('invalid_grant') {}
/** The client may not use this grant or response type. */
export class UnauthorizedClientError extends oauthErrorClass('unauthorized_client') {}
/** The grant type is not supported. */
export class UnsupportedGrantTypeError extends oauthErrorClass('unsupported_grant_type') {}
/** The response type is not supported. */
export class UnsupportedResponseTypeError extends oauthErrorClass('unsupported_response_type') {}
/** A requested scope is not available to this client. */
export class InvalidScopeError extends oauthErrorClass('invalid_scope') {}
/** The `resource` (RFC 8707) is missing, unknown, not delegatable or does not match. */
export class InvalidTargetError extends oauthErrorClass('invalid_target') {}
/** The person denied the request. */
export class AccessDeniedError extends oauthErrorClass('access_denied') {}
/** Registration metadata was refused (RFC 7591). */
export class InvalidClientMetadataError extends oauthErrorClass('invalid_client_metadata') {}
/** A registered redirect URI was refused (RFC 7591). */
export class InvalidRedirectUriError extends oauthErrorClass('invalid_redirect_uri') {}
/** The server could not complete the request (its own fault; never a client mistake). */
export class TemporarilyUnavailableError extends oauthErrorClass('temporarily_unavailable', 503) {}
