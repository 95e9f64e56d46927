import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { AuthenticatedPrincipal, AuthenticationStrategy } from '../identity/index.js';
import { looksLikeApiKey } from './api-key-material.js';
import type { CredentialDirectory } from './credential-directory.service.js';

/** `Authorization: sk_org_...` / `sk_app_...` (the raw key, no `Bearer`): a machine principal with the key's roles. */
@injectable()
export class ApiKeyAuthenticationStrategy implements AuthenticationStrategy {
  readonly name = 'api-key';

  constructor(@inject(SAAS_SERVICE_TYPES.CredentialDirectory) private readonly directory: CredentialDirectory) {}

  matches(authorization: string): boolean {
    return looksLikeApiKey(authorization);
  }

  authenticate(authorization: string): Promise<AuthenticatedPrincipal> {
    return this.directory.authenticateApiKey(authorization);
  }
}
