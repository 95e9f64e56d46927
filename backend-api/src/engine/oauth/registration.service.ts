import {
  CoreResourceOperation,
  ExecutionContext_ExecutionType,
  OIDC_SUPPORTED_IDENTITY_SCOPES,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { z } from 'zod';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import {
  CREDENTIAL_RESOURCE_TYPES,
  DYNAMIC_REGISTRATION_VARIANT,
  type CredentialDirectory,
  type CredentialSecrets,
} from '../credentials/index.js';
import type { ExecutionContext, ServicesRegistryHandler } from '../resources/index.js';
import { isSafeRedirectUri } from './cimd/index.js';
import { InvalidClientMetadataError, InvalidRedirectUriError } from './oauth.errors.js';
import type { OAuthSettings } from './oauth-settings.js';

/** The registration metadata this server reads (RFC 7591 §2); other members are ignored, as the RFC allows. */
const RegistrationRequestSchema = z.object({
  redirect_uris: z.array(z.string().max(2_048)).min(1).max(10),
  client_name: z.string().trim().min(1).max(100).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.enum(['none', 'client_secret_basic', 'client_secret_post']).optional(),
  scope: z.string().max(256).optional(),
  client_uri: z.string().url().max(2_048).optional(),
});

/** The registration response (RFC 7591 §3.2.1). */
export interface RegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  scope: string;
  registration_access_token: string;
  registration_client_uri: string;
  client_secret?: string;
  client_secret_expires_at?: number;
}

/**
 * Dynamic client registration (RFC 7591, opt-in): public tools register themselves for the authorization
 * code flow. They never get roles, business scopes or trust; redirect URIs must be https or loopback http.
 */
@injectable()
export class RegistrationService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.ServicesRegistryHandler) private readonly services: ServicesRegistryHandler,
    @inject(SAAS_SERVICE_TYPES.CredentialSecrets) private readonly secrets: CredentialSecrets,
    @inject(SAAS_SERVICE_TYPES.CredentialDirectory) private readonly credentials: CredentialDirectory,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Registers a client; throws `invalid_client_metadata` / `invalid_redirect_uri`. */
  async register(body: unknown): Promise<RegistrationResponse> {
    if (body !== null && typeof body === 'object' && 'roles' in body)
      throw new InvalidClientMetadataError('roles cannot be requested at dynamic registration.');
    const parsed = RegistrationRequestSchema.safeParse(body);
    if (!parsed.success) throw new InvalidClientMetadataError('The client metadata is malformed.');
    const request = parsed.data;
    const scopes = (request.scope ?? 'openid').split(/\s+/).filter(Boolean);
    const beyondIdentity = scopes.filter((s) => !OIDC_SUPPORTED_IDENTITY_SCOPES.includes(s));
    if (beyondIdentity.length > 0)
      throw new InvalidClientMetadataError(
        `scope(s) not available to a dynamically registered client: ${beyondIdentity.join(', ')}`,
      );
    if (request.grant_types && request.grant_types.some((g) => g !== 'authorization_code')) {
      throw new InvalidClientMetadataError(
        'Only the authorization_code grant is available to a dynamically registered client.',
      );
    }
    if (request.response_types && request.response_types.some((t) => t !== 'code'))
      throw new InvalidClientMetadataError('Only response_type code is supported.');
    if (request.redirect_uris.some((uri) => !isSafeRedirectUri(uri))) {
      throw new InvalidRedirectUriError(
        'Redirect URIs must be https (or http on a loopback host), without credentials or fragment.',
      );
    }
    const method = request.token_endpoint_auth_method ?? 'client_secret_basic';
    const registrationToken = `wrat_${this.secrets.generate()}`;
    const created = await this.services.executeCoreOperation<{ _id: string; plainSecret?: string; createdAt: string }>(
      CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS,
      CoreResourceOperation.CREATE,
      this.systemContext(),
      undefined,
      {
        clientName: request.client_name ?? 'Unnamed client',
        grantTypes: ['authorization_code'],
        roles: [],
        redirectUris: request.redirect_uris,
        tokenEndpointAuthMethod: method,
        trusted: false,
        scope: scopes.join(' '),
        registrationAccessTokenHash: this.secrets.hash(registrationToken),
      },
      { variantKey: DYNAMIC_REGISTRATION_VARIANT },
    );
    return {
      client_id: created._id,
      client_id_issued_at: Math.floor(new Date(created.createdAt).getTime() / 1000),
      client_name: request.client_name ?? 'Unnamed client',
      redirect_uris: request.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
      scope: scopes.join(' '),
      registration_access_token: registrationToken,
      registration_client_uri: `${this.settings.registrationEndpoint}/${created._id}`,
      // openid-client requires client_secret_expires_at beside an issued secret; 0 means it does not expire.
      ...(created.plainSecret ? { client_secret: created.plainSecret, client_secret_expires_at: 0 } : {}),
    };
  }

  /** RFC 7592 read: the registration's metadata, for the holder of its registration access token. */
  async read(
    clientId: string,
    registrationToken: string,
  ): Promise<Omit<RegistrationResponse, 'registration_access_token' | 'client_secret'> | null> {
    const located = await this.authorizedRegistration(clientId, registrationToken);
    if (!located) return null;
    const data = located.record.data as {
      clientName: string;
      redirectUris: string[];
      tokenEndpointAuthMethod: string;
      scope: string;
    };
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor(new Date(located.record.createdAt).getTime() / 1000),
      client_name: data.clientName,
      redirect_uris: data.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: data.tokenEndpointAuthMethod,
      scope: data.scope,
      registration_client_uri: `${this.settings.registrationEndpoint}/${clientId}`,
    };
  }

  /**
   * RFC 7592 delete: removes the registration through the resource's DELETE (so its tokens are revoked like
   * any deleted client's); false when the token does not match.
   */
  async remove(clientId: string, registrationToken: string): Promise<boolean> {
    const located = await this.authorizedRegistration(clientId, registrationToken);
    if (!located) return false;
    await this.services.executeCoreOperation(
      CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS,
      CoreResourceOperation.DELETE,
      this.systemContext(),
      clientId,
    );
    return true;
  }

  private async authorizedRegistration(clientId: string, registrationToken: string) {
    if (!/^[0-9a-f-]{36}$/.test(clientId)) return null;
    const located = await this.credentials.locate(CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS, clientId);
    const hash = located?.record.data.registrationAccessTokenHash;
    if (!located || typeof hash !== 'string' || !this.secrets.matches(registrationToken, hash)) return null;
    return located;
  }

  private systemContext(): ExecutionContext {
    return {
      executionType: ExecutionContext_ExecutionType.SYSTEM,
      initiatorIds: {},
      initiatorRoles: [],
      tenant: { kind: 'application' },
      surface: 'internal',
      requestId: `registration-${this.clock.now().getTime()}`,
      callTimestamp: this.clock.now().toISOString(),
    };
  }
}
