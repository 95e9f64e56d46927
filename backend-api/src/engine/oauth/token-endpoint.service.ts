import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import type { AccessTokenService, IdentitySettings, PrincipalDirectory, UsersService } from '../identity/index.js';
import { isStorableText } from '../resources/schema/index.js';
import {
  DELEGATED_TOKEN_RESOURCE_SERVERS,
  type ResourceServerInstancesRegistryBackendService,
} from '../resource-servers/index.js';
import type { AuthorizationCodeService } from './authorization-codes.service.js';
import type { OAuthClientDirectory, OAuthClientView } from './oauth-client-directory.service.js';
import {
  InvalidClientError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidTargetError,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from './oauth.errors.js';

/** A successful token response (RFC 6749 §5.1); no refresh token is ever issued. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope?: string;
  id_token?: string;
}

/** Form parameters of a token request, each present at most once. */
export type TokenRequestParams = Readonly<Record<string, string>>;

/** How the client authenticated: which client, and whether it proved a secret. */
interface AuthenticatedClient {
  client: OAuthClientView;
  confidential: boolean;
}

function parseBasic(header: string): { clientId: string; secret: string } {
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new InvalidClientError('Malformed client credentials.');
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    // Decoded from base64, the credentials may hold a NUL that no header could carry; the client id reaches SQL.
    if (isStorableText(clientId) && isStorableText(secret)) return { clientId, secret };
  } catch {
    // Broken percent-encoding: refused below like any malformed credentials.
  }
  throw new InvalidClientError('Malformed client credentials.');
}

/**
 * `POST /api/v1/oauth/token`: client_credentials (a signed snapshot of the client's roles and scope for a
 * known audience, at the configured lifetime: no requested lifetime) and authorization_code (PKCE S256, exact
 * redirect, single-use code, `resource` bound at authorization and equal if echoed, delegatable audiences only;
 * a delegated token carries the person, their authorization version and `azp`, plus `org` when no prompt was
 * shown; capped lifetime; no refresh).
 */
@injectable()
export class TokenEndpointService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.OAuthClientDirectory) private readonly clients: OAuthClientDirectory,
    @inject(SAAS_SERVICE_TYPES.AuthorizationCodeService) private readonly codes: AuthorizationCodeService,
    @inject(SAAS_SERVICE_TYPES.AccessTokenService) private readonly tokens: AccessTokenService,
    @inject(SAAS_SERVICE_TYPES.ResourceServerInstancesRegistry)
    private readonly resourceServers: ResourceServerInstancesRegistryBackendService,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.UsersService) private readonly users: UsersService,
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) private readonly identity: IdentitySettings,
  ) {}

  /** Answers a token request; throws an `OAuthError` subclass for every refusal. */
  async handle(params: TokenRequestParams, authorization: string | undefined): Promise<TokenResponse> {
    const grantType = params.grant_type;
    if (!grantType) throw new InvalidRequestError('grant_type is required.');
    if (grantType !== 'client_credentials' && grantType !== 'authorization_code')
      throw new UnsupportedGrantTypeError('This grant type is not supported.');
    const { client, confidential } = await this.authenticateClient(params, authorization);
    if (!client.grantTypes.includes(grantType))
      throw new UnauthorizedClientError('This client may not use this grant type.');
    return grantType === 'client_credentials'
      ? this.clientCredentials(client, confidential, params)
      : this.authorizationCode(client, confidential, params);
  }

  private async authenticateClient(
    params: TokenRequestParams,
    authorization: string | undefined,
  ): Promise<AuthenticatedClient> {
    let clientId = params.client_id;
    let secret = params.client_secret;
    if (authorization && /^basic /i.test(authorization)) {
      if (secret !== undefined) throw new InvalidRequestError('Use one client authentication method.');
      const basic = parseBasic(authorization);
      if (clientId !== undefined && clientId !== basic.clientId)
        throw new InvalidClientError('client_id does not match the client credentials.');
      clientId = basic.clientId;
      secret = basic.secret;
    }
    if (!clientId) throw new InvalidClientError('Client authentication is required.');
    const client = await this.clients.find(clientId);
    if (!client) throw new InvalidClientError('Client authentication failed.');
    if (client.tokenEndpointAuthMethod === 'none') {
      if (secret !== undefined) throw new InvalidClientError('This public client has no secret.');
      return { client, confidential: false };
    }
    if (secret === undefined || !this.clients.verifySecret(client, secret))
      throw new InvalidClientError('Client authentication failed.');
    return { client, confidential: true };
  }

  private async clientCredentials(
    client: OAuthClientView,
    confidential: boolean,
    params: TokenRequestParams,
  ): Promise<TokenResponse> {
    if (!confidential) throw new UnauthorizedClientError('client_credentials needs a confidential client.');
    const audience = params.resource;
    if (!audience) throw new InvalidTargetError('The resource parameter is required.');
    const known = [
      this.identity.apiAudience,
      ...this.resourceServers.listResourceServerAudiences(DELEGATED_TOKEN_RESOURCE_SERVERS),
    ];
    if (!known.includes(audience)) throw new InvalidTargetError('The resource is not a known audience.');
    const issued = await this.tokens.issueClientAccessToken({
      clientId: client.clientId,
      scopeType: client.scopeType,
      ...(client.organizationId ? { scopeId: client.organizationId } : {}),
      roles: client.roles,
      audience,
    });
    return { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn };
  }

  private async authorizationCode(
    client: OAuthClientView,
    confidential: boolean,
    params: TokenRequestParams,
  ): Promise<TokenResponse> {
    if (client.tokenEndpointAuthMethod !== 'none' && !confidential)
      throw new InvalidClientError('Client authentication failed.');
    if (!params.code) throw new InvalidRequestError('code is required.');
    const grant = await this.codes.exchangeAuthorizationCode({
      code: params.code,
      clientId: client.clientId,
      redirectUri: params.redirect_uri,
      codeVerifier: params.code_verifier,
    });
    if (params.resource !== undefined && params.resource !== grant.resource) {
      throw new InvalidTargetError(
        'The token-request resource does not match the resource authorized at the authorization endpoint.',
      );
    }
    if (!this.resourceServers.listResourceServerAudiences(DELEGATED_TOKEN_RESOURCE_SERVERS).includes(grant.resource)) {
      throw new InvalidTargetError('The resource is not a delegatable agent endpoint (MCP or A2A).');
    }
    const person = await this.directory.getUser(grant.userId);
    if (!person || person.status !== 'active' || person.authorizationVersion !== grant.authorizationVersion) {
      throw new InvalidGrantError('The person’s authorization changed since the code was issued; authorize again.');
    }
    // A prompt was skipped only because of this membership: without it there is nothing to delegate.
    if (grant.organizationRestriction !== undefined && !person.memberships.has(grant.organizationRestriction)) {
      throw new InvalidGrantError('The person’s authorization changed since the code was issued; authorize again.');
    }
    const issued = await this.tokens.issueDelegatedAccessToken({
      userId: grant.userId,
      authorizationVersion: grant.authorizationVersion,
      clientId: client.clientId,
      audience: grant.resource,
      scopes: grant.scopes,
      ...(grant.organizationRestriction !== undefined
        ? { organizationRestriction: grant.organizationRestriction }
        : {}),
    });
    const response: TokenResponse = {
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: grant.scopes.join(' '),
    };
    if (grant.scopes.includes('openid'))
      response.id_token = await this.idToken(grant.userId, client.clientId, grant.scopes, grant.nonce);
    return response;
  }

  private async idToken(
    userId: string,
    clientId: string,
    scopes: readonly string[],
    nonce: string | undefined,
  ): Promise<string> {
    const user = await this.users.getById(userId);
    const claims: Record<string, unknown> = {};
    if (user && scopes.includes('email')) Object.assign(claims, { email: user.email, email_verified: false });
    if (user && scopes.includes('profile') && user.displayName) claims.name = user.displayName;
    return this.tokens.issueIdToken({ userId, clientId, ...(nonce ? { nonce } : {}), claims });
  }
}
