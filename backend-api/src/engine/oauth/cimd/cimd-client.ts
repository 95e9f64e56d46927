import { CimdResolutionError } from './cimd.errors.js';

/** A client identified by its metadata document URL, as the OAuth layer uses it. Always a public client. */
export interface CimdClient {
  /** The document URL, which is the client_id. */
  clientId: string;
  clientName: string;
  redirectUris: readonly string[];
  clientUri?: string;
  logoUri?: string;
}

/**
 * Refuses a redirect URI that is not exactly (string-equal) one the client registered: sharing an
 * origin or a path prefix is not enough.
 *
 * @throws {CimdResolutionError} with reason `redirect_uri_not_registered`
 */
export function assertRedirectAllowed(client: CimdClient, redirectUri: string): void {
  if (!client.redirectUris.includes(redirectUri)) throw new CimdResolutionError('redirect_uri_not_registered');
}
