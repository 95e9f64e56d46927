import { randomUUID } from 'node:crypto';
import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { TokenRevocations } from './token-revocations.service.js';
import type { IdentitySettings } from './identity-settings.js';
import type { AuthenticatedPrincipal, MachinePrincipal, UserPrincipal } from './principal.types.js';
import { SIGNING_ALGORITHM, type SigningKeyService } from './signing-keys.service.js';

/** Tokens longer than this are refused before any parsing. */
const MAX_TOKEN_LENGTH = 4_096;
/** Verified tokens remembered (signature checks cost ~0.2 ms each; a token's claims never change). */
const VERIFIED_CACHE_SIZE = 10_000;
const CLOCK_TOLERANCE_SECONDS = 5;
/** The JWT `typ` of access tokens (RFC 9068). */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** Delegated tokens never outlive this, whatever the configured lifetime. */
export const MAX_DELEGATED_TOKEN_MINUTES = 60;

/** An issued token. */
export interface IssuedAccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** What the machine token issuer needs: the client, its scope and roles, the audience. */
export interface MachineAccessTokenRequest {
  clientId: string;
  scopeType: ResourcePrimaryScope;
  /** The organization id for an organization client. */
  scopeId?: string;
  roles: readonly string[];
  audience: string;
  /** Internal callers may shorten the configured lifetime; the public token endpoint never passes it. */
  expiresInMinutes?: number;
}

/** The issuer's answer. */
export type MachineAccessTokenResponse = IssuedAccessToken;

/** The claims of a machine (client_credentials) token before signing: which client, in which scope, with which roles. */
export interface Jwt_MachineToken_CreationParameter {
  type: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE | ExecutionContext_ExecutionType.APPLICATION_MACHINE;
  clientId: string;
  /** The organization of an organization client; absent for an application client. */
  scopeId?: string;
  roles: readonly string[];
}

/** A token a person delegated to a client, for one MCP/A2A audience. */
export interface DelegatedAccessTokenRequest {
  userId: string;
  authorizationVersion: number;
  clientId: string;
  audience: string;
  scopes: readonly string[];
  /** The only organization the token acts in (claim `org`): set when the person was not prompted for consent. */
  organizationRestriction?: string;
}

/** The claim set every kind of access token shares, and the kind-specific part. */
type TokenKind = 'user' | 'delegated' | 'machine';

interface CachedVerification {
  principal: AuthenticatedPrincipal;
  expiresAtMs: number;
  /** `iat`, for the revocation check every use of the token passes. */
  issuedAtMs: number;
}

const invalidToken = (cause?: unknown) =>
  new FrameworkError('UNAUTHENTICATED', 'The access token is invalid or expired.', {
    reason: 'credential_invalid',
    cause,
  });

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * Issues and verifies access tokens: signed JWTs (`typ: at+jwt`) with `iss`, `aud`, `sub`, `jti` and a
 * `wildo_kind` (`user` first-party, `delegated` to a client for one audience, `machine` for a client acting
 * as itself). A token is accepted only for the audience it names. Verifications are cached until expiry; the
 * revocations of clients and consents are checked on every use, cached or not.
 */
@injectable()
export class AccessTokenService {
  private readonly verified = new Map<string, CachedVerification>();

  constructor(
    @inject(SAAS_SERVICE_TYPES.SigningKeyService) private readonly keys: SigningKeyService,
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) private readonly settings: IdentitySettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
    @inject(SAAS_SERVICE_TYPES.TokenRevocations) private readonly revocations: TokenRevocations,
  ) {}

  /** Signs a first-party token (the REST API audience) for a user at their current authorization version. */
  issueUserAccessToken(user: { id: string; authorizationVersion: number }): Promise<IssuedAccessToken> {
    return this.sign('user', user.id, this.settings.apiAudience, this.settings.accessTokenLifetimeMinutes, {
      av: user.authorizationVersion,
    });
  }

  /** Signs a client_credentials token: a snapshot of the client's roles and scope for one audience. */
  issueClientAccessToken(request: MachineAccessTokenRequest): Promise<MachineAccessTokenResponse> {
    const max = this.settings.accessTokenLifetimeMinutes;
    const minutes = Math.max(1, Math.min(request.expiresInMinutes ?? max, max));
    const claim: Jwt_MachineToken_CreationParameter = {
      type:
        request.scopeType === ResourcePrimaryScope.ORGANIZATIONS
          ? ExecutionContext_ExecutionType.ORGANIZATION_MACHINE
          : ExecutionContext_ExecutionType.APPLICATION_MACHINE,
      clientId: request.clientId,
      scopeId: request.scopeId,
      roles: request.roles,
    };
    return this.createJwtForMachineToken(claim, { audience: request.audience, expiresInMinutes: minutes });
  }

  /** Signs a machine token from its claims; only an organization client's token carries `org`. */
  private createJwtForMachineToken(
    claim: Jwt_MachineToken_CreationParameter,
    options: { audience: string; expiresInMinutes: number },
  ): Promise<IssuedAccessToken> {
    const organization = claim.type === ExecutionContext_ExecutionType.ORGANIZATION_MACHINE;
    return this.sign('machine', claim.clientId, options.audience, options.expiresInMinutes, {
      client_id: claim.clientId,
      wildo_principal: claim.type,
      ...(organization && claim.scopeId ? { org: claim.scopeId } : {}),
      roles: [...claim.roles],
    });
  }

  /**
   * Signs a token a person delegated to a client for one MCP/A2A endpoint; lifetime capped, no refresh. With
   * `organizationRestriction` it carries `org` and acts in that organization only.
   */
  issueDelegatedAccessToken(request: DelegatedAccessTokenRequest): Promise<IssuedAccessToken> {
    const minutes = Math.min(this.settings.accessTokenLifetimeMinutes, MAX_DELEGATED_TOKEN_MINUTES);
    return this.sign('delegated', request.userId, request.audience, minutes, {
      av: request.authorizationVersion,
      azp: request.clientId,
      client_id: request.clientId,
      scope: request.scopes.join(' '),
      ...(request.organizationRestriction !== undefined ? { org: request.organizationRestriction } : {}),
    });
  }

  /**
   * Signs an OpenID Connect ID token for the client (`aud` = client id) with the identity claims its scopes
   * allow; it is not an access token and no endpoint accepts it as one.
   */
  async issueIdToken(request: {
    userId: string;
    clientId: string;
    nonce?: string;
    claims: Record<string, unknown>;
  }): Promise<string> {
    const { kid, privateKey } = this.keys.signingKey;
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ ...request.claims, azp: request.clientId, ...(request.nonce ? { nonce: request.nonce } : {}) })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(this.settings.issuer)
      .setAudience(request.clientId)
      .setSubject(request.userId)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(
        nowSeconds + Math.min(this.settings.accessTokenLifetimeMinutes, MAX_DELEGATED_TOKEN_MINUTES) * 60,
      )
      .sign(privateKey);
  }

  /** Verifies an access token for `audience` (default: the REST API); throws UNAUTHENTICATED otherwise. */
  async verifyAccessToken(
    token: string,
    audience: string = this.settings.apiAudience,
  ): Promise<AuthenticatedPrincipal> {
    const nowMs = this.clock.now().getTime();
    const cacheKey = `${audience}\u0000${token}`;
    const cached = this.verified.get(cacheKey);
    const verified =
      cached && cached.expiresAtMs > nowMs ? cached : await this.verifySignature(token, audience, cacheKey, nowMs);
    // After the cache: a token verified before its client or consent was revoked is refused from then on.
    this.revocations.assertNotRevoked(verified.principal, verified.issuedAtMs);
    return verified.principal;
  }

  private async verifySignature(
    token: string,
    audience: string,
    cacheKey: string,
    nowMs: number,
  ): Promise<CachedVerification> {
    if (token.length > MAX_TOKEN_LENGTH) throw invalidToken();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.keys.publicKeyFor(header.kid) : undefined;
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        {
          algorithms: [SIGNING_ALGORITHM],
          issuer: this.settings.issuer,
          audience,
          typ: ACCESS_TOKEN_TYPE,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          currentDate: new Date(nowMs),
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
        },
      ));
    } catch (cause) {
      // Signed by us and current, only for another endpoint (a sign-in token at the MCP endpoint, say): say so, so the
      // holder asks for a token for this one instead of signing in again. The reason stays the same for programs.
      if (cause instanceof joseErrors.JWTClaimValidationFailed && cause.claim === 'aud') {
        throw new FrameworkError(
          'UNAUTHENTICATED',
          `The access token is for another audience: this endpoint (${audience}) accepts only tokens issued for it.`,
          { reason: 'credential_invalid', cause },
        );
      }
      throw invalidToken(cause);
    }
    const verified = {
      principal: this.principalOf(payload, audience),
      expiresAtMs: (payload.exp as number) * 1000,
      issuedAtMs: (payload.iat as number) * 1000,
    };
    this.remember(cacheKey, verified, nowMs);
    return verified;
  }

  /** The first-party token of a user (the REST API audience), or a refusal for any other kind. */
  async verifyUserAccessToken(token: string): Promise<UserPrincipal> {
    const principal = await this.verifyAccessToken(token);
    if (principal.kind !== 'user' || principal.credential.type !== 'access_token') throw invalidToken();
    return principal;
  }

  private async sign(
    kind: TokenKind,
    subject: string,
    audience: string,
    minutes: number,
    claims: Record<string, unknown>,
  ): Promise<IssuedAccessToken> {
    const { kid, privateKey } = this.keys.signingKey;
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const lifetime = minutes * 60;
    const accessToken = await new SignJWT({ ...claims, wildo_kind: kind })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.settings.issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + lifetime)
      .sign(privateKey);
    return { accessToken, tokenType: 'Bearer', expiresIn: lifetime };
  }

  private principalOf(payload: JWTPayload, audience: string): AuthenticatedPrincipal {
    const { sub, jti } = payload;
    if (typeof sub !== 'string' || typeof jti !== 'string') throw invalidToken();
    switch (payload.wildo_kind) {
      case 'user':
      case 'delegated': {
        if (typeof payload.av !== 'number' || !Number.isInteger(payload.av)) throw invalidToken();
        const delegated = payload.wildo_kind === 'delegated';
        if (delegated && typeof payload.azp !== 'string') throw invalidToken();
        // Only delegated tokens are ever restricted; a restriction that cannot be read is not dropped.
        if (payload.org !== undefined && (!delegated || typeof payload.org !== 'string')) throw invalidToken();
        return {
          kind: 'user',
          userId: sub,
          authorizationVersion: payload.av,
          credential: {
            type: delegated ? 'delegated_token' : 'access_token',
            id: jti,
            audience,
            ...(delegated ? { authorizedParty: payload.azp as string } : {}),
          },
          ...(typeof payload.org === 'string' ? { organizationRestriction: payload.org } : {}),
        };
      }
      case 'machine':
        return this.machinePrincipalOf(payload, sub, jti, audience);
      default:
        throw invalidToken();
    }
  }

  private machinePrincipalOf(payload: JWTPayload, clientId: string, jti: string, audience: string): MachinePrincipal {
    const type = payload.wildo_principal;
    if (!isStringArray(payload.roles)) throw invalidToken();
    if (type === ExecutionContext_ExecutionType.ORGANIZATION_MACHINE && typeof payload.org === 'string') {
      return {
        kind: 'machine',
        executionType: type,
        clientId,
        organizationId: payload.org,
        roles: payload.roles,
        credential: { type: 'client_token', id: jti, audience },
      };
    }
    if (type === ExecutionContext_ExecutionType.APPLICATION_MACHINE) {
      return {
        kind: 'machine',
        executionType: type,
        clientId,
        roles: payload.roles,
        credential: { type: 'client_token', id: jti, audience },
      };
    }
    throw invalidToken();
  }

  private remember(key: string, verified: CachedVerification, nowMs: number): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      // Evict expired entries first; if the cache is still full, drop the oldest insertion.
      for (const [k, entry] of this.verified) if (entry.expiresAtMs <= nowMs) this.verified.delete(k);
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(key, verified);
  }
}
