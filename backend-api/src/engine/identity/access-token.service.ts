import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Clock } from '../container/clock.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { FrameworkError } from '../errors/index.js';
import type { IdentitySettings } from './identity-settings.js';
import type { UserPrincipal } from './principal.types.js';
import { SIGNING_ALGORITHM, type SigningKeyService } from './signing-keys.service.js';

/** Tokens longer than this are refused before any parsing. */
const MAX_TOKEN_LENGTH = 4_096;
/** Verified tokens remembered (signature checks cost ~0.2 ms each; a token's claims never change). */
const VERIFIED_CACHE_SIZE = 10_000;
const CLOCK_TOLERANCE_SECONDS = 5;
/** The JWT `typ` of access tokens (RFC 9068). */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** An issued token. */
export interface IssuedAccessToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

interface CachedVerification {
  principal: UserPrincipal;
  expiresAtMs: number;
}

const invalidToken = (cause?: unknown) =>
  new FrameworkError('UNAUTHENTICATED', 'The access token is invalid or expired.', { reason: 'credential_invalid', cause });

/**
 * Issues and verifies first-party user access tokens: signed JWTs (`typ: at+jwt`) with `iss`, `aud`,
 * `sub`, `jti` and the user's authorization version (`av`). Verification results are cached until expiry.
 */
@injectable()
export class AccessTokenService {
  private readonly verified = new Map<string, CachedVerification>();

  constructor(
    @inject(SAAS_SERVICE_TYPES.SigningKeyService) private readonly keys: SigningKeyService,
    @inject(SAAS_SERVICE_TYPES.IdentitySettings) private readonly settings: IdentitySettings,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Signs an access token for a user at their current authorization version. */
  async issueUserAccessToken(user: { id: string; authorizationVersion: number }): Promise<IssuedAccessToken> {
    const { kid, privateKey } = this.keys.signingKey;
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const lifetime = this.settings.accessTokenLifetimeMinutes * 60;
    const accessToken = await new SignJWT({ av: user.authorizationVersion })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.apiAudience)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + lifetime)
      .sign(privateKey);
    return { accessToken, tokenType: 'Bearer', expiresIn: lifetime };
  }

  /** Verifies a first-party access token; throws UNAUTHENTICATED (`credential_invalid`) for anything else. */
  async verifyUserAccessToken(token: string): Promise<UserPrincipal> {
    const nowMs = this.clock.now().getTime();
    const cached = this.verified.get(token);
    if (cached && cached.expiresAtMs > nowMs) return cached.principal;
    if (token.length > MAX_TOKEN_LENGTH) throw invalidToken();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, async (header) => {
        const key = header.kid ? await this.keys.publicKeyFor(header.kid) : undefined;
        if (!key) throw new joseErrors.JWKSNoMatchingKey();
        return key;
      }, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.apiAudience,
        typ: ACCESS_TOKEN_TYPE,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(nowMs),
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      }));
    } catch (cause) {
      throw invalidToken(cause);
    }
    if (typeof payload.av !== 'number' || !Number.isInteger(payload.av) || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') {
      throw invalidToken();
    }
    const principal: UserPrincipal = {
      kind: 'user',
      userId: payload.sub,
      authorizationVersion: payload.av,
      credential: { type: 'access_token', id: payload.jti, audience: this.settings.apiAudience },
    };
    this.remember(token, principal, (payload.exp as number) * 1000, nowMs);
    return principal;
  }

  private remember(token: string, principal: UserPrincipal, expiresAtMs: number, nowMs: number): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      // Evict expired entries first; if the cache is still full, drop the oldest insertion.
      for (const [key, entry] of this.verified) if (entry.expiresAtMs <= nowMs) this.verified.delete(key);
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(token, { principal, expiresAtMs });
  }
}
