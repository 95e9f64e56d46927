import {
  OIDC_SUPPORTED_IDENTITY_SCOPES,
  type OAuthAuthorizeRequest,
  type OAuthAuthorizeResponse,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { PrincipalDirectory, UserPrincipal } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import {
  DELEGATED_TOKEN_RESOURCE_SERVERS,
  type ResourceServerInstancesRegistryBackendService,
} from '../resource-servers/index.js';
import type { AuthorizationCodeService } from './authorization-codes.service.js';
import type { ConsentGrantsService } from './consent-grants.service.js';
import type { ConsentRequestService, PendingAuthorization } from './consent-requests.service.js';
import type { OAuthClientDirectory, OAuthClientView } from './oauth-client-directory.service.js';
import {
  AccessDeniedError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  OAuthError,
  UnauthorizedClientError,
  UnsupportedResponseTypeError,
} from './oauth.errors.js';
import type { OAuthSettings } from './oauth-settings.js';

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A refusal that cannot go back to the client (unknown client or unregistered redirect): shown to the person. */
function notReturnable(path: 'client_id' | 'redirect_uri', message: string, expected: string): FrameworkError {
  return new FrameworkError('VALIDATION_FAILED', message, { reason: 'input_invalid', problems: [{ path, expected }] });
}

/**
 * The authorization endpoint's logic, called by the consent page with the signed-in person: validate the
 * request (client, exact redirect, PKCE S256, delegatable `resource`, identity scopes), then either skip the
 * prompt (a covering remembered consent; or a trusted client for an accepted member of its organization, whose
 * token then acts in that organization only) or create a single-use consent request; the decision call
 * finishes it. Responses carry RFC 9207 `iss`.
 */
@injectable()
export class AuthorizationService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.OAuthClientDirectory) private readonly clients: OAuthClientDirectory,
    @inject(SAAS_SERVICE_TYPES.AuthorizationCodeService) private readonly codes: AuthorizationCodeService,
    @inject(SAAS_SERVICE_TYPES.ConsentRequestService) private readonly consentRequests: ConsentRequestService,
    @inject(SAAS_SERVICE_TYPES.ConsentGrantsService) private readonly consentGrants: ConsentGrantsService,
    @inject(SAAS_SERVICE_TYPES.ResourceServerInstancesRegistry)
    private readonly resourceServers: ResourceServerInstancesRegistryBackendService,
    @inject(SAAS_SERVICE_TYPES.PrincipalDirectory) private readonly directory: PrincipalDirectory,
    @inject(SAAS_SERVICE_TYPES.OAuthSettings) private readonly settings: OAuthSettings,
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
  ) {}

  /** Processes an authorization request for a signed-in person. */
  async authorize(person: UserPrincipal, request: OAuthAuthorizeRequest): Promise<OAuthAuthorizeResponse> {
    const client = await this.clients.find(request.client_id).catch((error: unknown) => {
      if (error instanceof OAuthError)
        throw notReturnable(
          'client_id',
          error.description,
          'a registered client or an allowed client metadata document',
        );
      throw error;
    });
    if (!client)
      throw notReturnable(
        'client_id',
        'This application is not known.',
        'a registered client or an allowed client metadata document',
      );
    if (!client.redirectUris.includes(request.redirect_uri)) {
      throw notReturnable(
        'redirect_uri',
        'This application’s redirect address is not registered.',
        'a redirect URI registered for this client (exact match)',
      );
    }
    let pending: PendingAuthorization;
    try {
      pending = this.validate(client, request);
    } catch (error) {
      if (error instanceof OAuthError)
        return { kind: 'redirect', redirect_to: this.errorRedirect(request.redirect_uri, request.state, error) };
      throw error;
    }
    const skipped = await this.promptSkipped(person.userId, client, pending);
    if (skipped)
      return { kind: 'redirect', redirect_to: await this.approve(person, pending, skipped.organizationRestriction) };
    const { token, expiresIn } = await this.consentRequests.create(person.userId, pending);
    return {
      kind: 'consent',
      consent_token: token,
      client: {
        client_id: client.clientId,
        client_name: client.clientName,
        ...(client.clientUri ? { client_uri: client.clientUri } : {}),
      },
      resource: pending.resource,
      scopes: pending.scopes,
      expires_in: expiresIn,
    };
  }

  /** Applies the person's decision on a pending request; returns where the browser goes next. */
  async decide(
    person: UserPrincipal,
    consentToken: string,
    decision: 'approve' | 'deny',
    remember: boolean,
  ): Promise<string> {
    const pending = await this.consentRequests.consume(consentToken, person.userId);
    if (!pending)
      throw new FrameworkError('BAD_REQUEST', 'This consent request is invalid, expired or already decided.');
    if (decision === 'deny')
      return this.errorRedirect(
        pending.redirectUri,
        pending.state,
        new AccessDeniedError('The person denied the request.'),
      );
    if (remember)
      await this.consentGrants.rememberApproval(
        person.userId,
        { clientId: pending.clientId, clientName: pending.clientName },
        pending.resource,
        pending.scopes,
      );
    return this.approve(person, pending);
  }

  private validate(client: OAuthClientView, request: OAuthAuthorizeRequest): PendingAuthorization {
    if (request.response_type !== 'code')
      throw new UnsupportedResponseTypeError('Only response_type=code is supported.');
    if (!client.grantTypes.includes('authorization_code'))
      throw new UnauthorizedClientError('This client may not use the authorization code grant.');
    if (
      request.code_challenge_method !== 'S256' ||
      !request.code_challenge ||
      !PKCE_CHALLENGE.test(request.code_challenge)
    ) {
      throw new InvalidRequestError('PKCE with code_challenge_method=S256 is required.');
    }
    if (!request.resource) throw new InvalidTargetError('The resource parameter (RFC 8707) is required.');
    const delegatable = this.resourceServers.listResourceServerAudiences(DELEGATED_TOKEN_RESOURCE_SERVERS);
    if (!delegatable.includes(request.resource))
      throw new InvalidTargetError('The resource is not a delegatable agent endpoint (MCP or A2A).');
    const scopes = [...new Set((request.scope ?? '').split(' ').filter(Boolean))];
    if (scopes.some((s) => !OIDC_SUPPORTED_IDENTITY_SCOPES.includes(s) || !client.allowedScopes.includes(s))) {
      throw new InvalidScopeError('Only the identity scopes openid, profile and email can be requested.');
    }
    return {
      clientId: client.clientId,
      clientName: client.clientName,
      redirectUri: request.redirect_uri,
      ...(request.state !== undefined ? { state: request.state } : {}),
      codeChallenge: request.code_challenge,
      resource: request.resource,
      scopes,
      ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
    };
  }

  /**
   * Whether the prompt is skipped, and on which terms; null means prompt. A covering remembered consent (given at a
   * prompt) skips it with the person's full authority. A trusted client of an organization skips it for people who
   * accepted membership there (the directory holds accepted memberships only), and its token then acts in that
   * organization only: reaching the person's other organizations needs their consent.
   */
  private async promptSkipped(
    userId: string,
    client: OAuthClientView,
    pending: PendingAuthorization,
  ): Promise<{ organizationRestriction?: string } | null> {
    if (await this.consentGrants.hasCoveringConsentGrant(userId, client.clientId, pending.resource, pending.scopes))
      return {};
    if (client.trusted && client.organizationId && (await this.isMember(userId, client.organizationId)))
      return { organizationRestriction: client.organizationId };
    return null;
  }

  private async isMember(userId: string, organizationId: string): Promise<boolean> {
    try {
      const snapshot = await this.directory.getUser(userId);
      return snapshot?.status === 'active' && snapshot.memberships.has(organizationId);
    } catch (error) {
      // An unreadable membership forces the prompt rather than skipping it.
      this.logger.warn('membership unreadable during authorization; prompting', { error: String(error) });
      return false;
    }
  }

  private async approve(
    person: UserPrincipal,
    pending: PendingAuthorization,
    organizationRestriction?: string,
  ): Promise<string> {
    const code = await this.codes.issue({
      clientId: pending.clientId,
      userId: person.userId,
      authorizationVersion: person.authorizationVersion,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      resource: pending.resource,
      scopes: pending.scopes,
      ...(pending.nonce !== undefined ? { nonce: pending.nonce } : {}),
      ...(organizationRestriction !== undefined ? { organizationRestriction } : {}),
    });
    return this.redirect(pending.redirectUri, {
      code,
      ...(pending.state !== undefined ? { state: pending.state } : {}),
    });
  }

  private errorRedirect(redirectUri: string, state: string | undefined, error: OAuthError): string {
    return this.redirect(redirectUri, {
      error: error.errorCode,
      error_description: error.description,
      ...(state !== undefined ? { state } : {}),
    });
  }

  private redirect(redirectUri: string, params: Record<string, string>): string {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    url.searchParams.set('iss', this.settings.issuer);
    return url.toString();
  }
}
