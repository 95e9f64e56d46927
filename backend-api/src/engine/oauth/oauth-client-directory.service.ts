import { ResourcePrimaryScope } from '@wildo/shared-lib';
import { inject, injectable, optional } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { CREDENTIAL_RESOURCE_TYPES, type CredentialDirectory, type CredentialSecrets } from '../credentials/index.js';
import { CimdResolutionError, type CimdResolver } from './cimd/index.js';
import { InvalidClientError } from './oauth.errors.js';

/** A stored client secret (hash) and its cutoff. */
interface StoredSecret {
  hash: string;
  invalidAfter: string | null;
}

/** Everything the authorization server needs to know about a client, whatever kind it is. */
export interface OAuthClientView {
  clientId: string;
  clientName: string;
  /** `registered`/`dynamic_registration` clients are records; `metadata_document` clients are CIMD URLs. */
  origin: 'registered' | 'dynamic_registration' | 'metadata_document';
  grantTypes: readonly string[];
  redirectUris: readonly string[];
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'none';
  roles: readonly string[];
  scopeType: ResourcePrimaryScope;
  organizationId?: string;
  trusted: boolean;
  /** Identity scopes the client may request. */
  allowedScopes: readonly string[];
  clientUri?: string;
  secrets: readonly StoredSecret[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Finds OAuth clients by `client_id`: a UUID names a registered (or self-registered) client record, an https
 * URL names a Client ID Metadata Document resolved under the configured trust policy.
 */
@injectable()
export class OAuthClientDirectory {
  constructor(
    @inject(SAAS_SERVICE_TYPES.CredentialDirectory) private readonly credentials: CredentialDirectory,
    @inject(SAAS_SERVICE_TYPES.CredentialSecrets) private readonly secrets: CredentialSecrets,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.CimdResolver) @optional() private readonly cimd?: CimdResolver,
  ) {}

  /** The client, or null when no client has this id (a refused metadata document throws `InvalidClientError`). */
  async find(clientId: string): Promise<OAuthClientView | null> {
    if (UUID.test(clientId)) return this.findRegistered(clientId);
    if (clientId.startsWith('https://') && this.cimd) return this.findByMetadataDocument(clientId);
    return null;
  }

  /** Whether `secret` is one of the client's secrets that has not passed its cutoff. */
  verifySecret(client: OAuthClientView, secret: string): boolean {
    const nowMs = this.clock.now().getTime();
    let matched = false;
    // Every secret is compared (no early exit), so timing does not tell which one matched.
    for (const stored of client.secrets) {
      const live = stored.invalidAfter === null || new Date(stored.invalidAfter).getTime() > nowMs;
      if (this.secrets.matches(secret, stored.hash) && live) matched = true;
    }
    return matched;
  }

  private async findRegistered(clientId: string): Promise<OAuthClientView | null> {
    for (const type of [
      CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_OAUTH_CLIENTS,
      CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS,
    ]) {
      const located = await this.credentials.locate(type, clientId);
      if (!located) continue;
      const data = located.record.data as {
        clientName: string;
        grantTypes: string[];
        redirectUris: string[];
        tokenEndpointAuthMethod: OAuthClientView['tokenEndpointAuthMethod'];
        roles: string[];
        trusted: boolean;
        origin: 'registered' | 'dynamic_registration';
        scope: string;
        secrets: StoredSecret[];
      };
      const organizationId = located.scope.kind === 'organization' ? located.scope.organizationId : undefined;
      return {
        clientId,
        clientName: data.clientName,
        origin: data.origin,
        grantTypes: data.grantTypes,
        redirectUris: data.redirectUris,
        tokenEndpointAuthMethod: data.tokenEndpointAuthMethod,
        roles: data.roles,
        scopeType: organizationId ? ResourcePrimaryScope.ORGANIZATIONS : ResourcePrimaryScope.APPLICATION,
        ...(organizationId ? { organizationId } : {}),
        // Self-registered clients can never be trusted, whatever their record says.
        trusted: data.trusted === true && data.origin === 'registered' && organizationId !== undefined,
        allowedScopes: data.scope.split(/\s+/).filter(Boolean),
        secrets: data.secrets,
      };
    }
    return null;
  }

  private async findByMetadataDocument(clientId: string): Promise<OAuthClientView> {
    try {
      const client = await (this.cimd as CimdResolver).resolve(clientId);
      return {
        clientId: client.clientId,
        clientName: client.clientName,
        origin: 'metadata_document',
        grantTypes: ['authorization_code'],
        redirectUris: client.redirectUris,
        tokenEndpointAuthMethod: 'none',
        roles: [],
        scopeType: ResourcePrimaryScope.APPLICATION,
        trusted: false,
        allowedScopes: ['openid', 'profile', 'email'],
        ...(client.clientUri ? { clientUri: client.clientUri } : {}),
        secrets: [],
      };
    } catch (error) {
      if (error instanceof CimdResolutionError)
        throw new InvalidClientError(`The client metadata document was refused (${error.reason}).`);
      throw error;
    }
  }
}
