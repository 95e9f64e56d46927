import { createHash, randomBytes } from 'node:crypto';
import {
  ConsumableToken_ConsumptionMode,
  CoreConsumableTokenTypes,
  durationToMilliseconds,
  type Duration,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES, type Clock } from '../container/index.js';
import type { SqlDatabase } from '../persistence/index.js';

/** The prefix of each kind's tokens (the formats clients already hold: `ra_` proofs, `wcr_` consent requests). */
const TOKEN_PREFIX: Record<CoreConsumableTokenTypes, string> = {
  [CoreConsumableTokenTypes.REAUTH_PROOF]: 'ra_',
  [CoreConsumableTokenTypes.OAUTH_CONSENT_REQUEST]: 'wcr_',
  [CoreConsumableTokenTypes.FILE_UPLOAD_GRANT]: 'wug_',
  [CoreConsumableTokenTypes.EMAIL_VERIFICATION]: 'wev_',
};
/**
 * How long a token is kept after it expired before it is swept: its status can still be read in that time (an
 * upload grant's status URL answers `expired`, not 404).
 */
export const EXPIRED_TOKEN_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** 256 bits of randomness, base64url. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a consumable token is for, whom it is bound to and when it expires (the guide's `createToken` input). */
export interface ConsumableTokenCreation<TMetadata = unknown> {
  tokenType: CoreConsumableTokenTypes;
  consumptionMode: ConsumableToken_ConsumptionMode;
  expiresIn: Duration;
  /** The person the token is bound to: only they can consume it. */
  userId?: string;
  organizationId?: string;
  /** The resource type the token acts on, and the record when it names one. */
  resourceIdentifier?: string;
  relatedId?: string;
  /** The issuer's roles when the token was minted (a snapshot, never more than the issuer held). */
  roles?: readonly string[];
  /** Server-side data the token stands for (the client holds only the opaque token). */
  metadata?: TMetadata;
}

/** A freshly minted token: shown to its holder once, stored only as a hash. */
export interface IssuedConsumableToken {
  token: string;
  expiresAt: Date;
  /** Seconds until `expiresAt`. */
  expiresIn: number;
}

/** What consuming a token gives back. */
export interface ConsumedToken<TMetadata = unknown> {
  tokenType: CoreConsumableTokenTypes;
  userId: string | null;
  organizationId: string | null;
  resourceIdentifier: string | null;
  relatedId: string | null;
  roles: string[];
  metadata: TMetadata | null;
}

/** A token as stored, read without using it: its binding, expiry and whether it was used. */
export interface InspectedToken<TMetadata = unknown> extends ConsumedToken<TMetadata> {
  expiresAt: Date;
  usedAt: Date | null;
}

interface TokenRow<TMetadata> {
  token_type: CoreConsumableTokenTypes;
  user_id: string | null;
  organization_id: string | null;
  resource_identifier: string | null;
  related_id: string | null;
  roles: string[];
  metadata: TMetadata | null;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Opaque single-use tokens (step-up proofs, consent requests): minted with 256 bits of randomness and a
 * prefix per kind, stored as a SHA-256 hash with their binding and expiry. Consuming checks kind, person,
 * expiry and first use in one atomic statement, so two concurrent uses cannot both succeed.
 *
 * @example
 * const { token } = await tokens.createToken({ tokenType: CoreConsumableTokenTypes.REAUTH_PROOF,
 *   consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE, expiresIn: { value: 5, unit: DurationUnit.MINUTES }, userId });
 * await tokens.consume(token, { tokenType: CoreConsumableTokenTypes.REAUTH_PROOF, userId }); // once; null after
 */
@injectable()
export class ConsumableTokenService {
  constructor(
    @inject(SAAS_SERVICE_TYPES.Database) private readonly db: SqlDatabase,
    @inject(SAAS_SERVICE_TYPES.Clock) private readonly clock: Clock,
  ) {}

  /** Mints and stores a token; tokens of every kind that expired over a week ago are swept on the way. */
  async createToken<TMetadata>(creation: ConsumableTokenCreation<TMetadata>): Promise<IssuedConsumableToken> {
    const lifetimeMs = durationToMilliseconds(creation.expiresIn);
    const token = `${TOKEN_PREFIX[creation.tokenType]}${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + lifetimeMs);
    await this.db.query('DELETE FROM wildo_consumable_tokens WHERE expires_at < $1', [
      new Date(now.getTime() - EXPIRED_TOKEN_RETENTION_MS),
    ]);
    await this.db.query(
      `INSERT INTO wildo_consumable_tokens
         (token_hash, token_type, consumption_mode, user_id, organization_id, resource_identifier, related_id, roles, metadata, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        hashOf(token),
        creation.tokenType,
        creation.consumptionMode,
        creation.userId ?? null,
        creation.organizationId ?? null,
        creation.resourceIdentifier ?? null,
        creation.relatedId ?? null,
        JSON.stringify(creation.roles ?? []),
        creation.metadata === undefined ? null : JSON.stringify(creation.metadata),
        now,
        expiresAt,
      ],
    );
    return { token, expiresAt, expiresIn: Math.round(lifetimeMs / 1000) };
  }

  /**
   * Uses a token of `tokenType` presented by `userId` (null for tokens bound to nobody): its binding once, or
   * null when it is malformed, unknown, of another kind, someone else's, expired or already used.
   */
  async consume<TMetadata = unknown>(
    token: string,
    expected: { tokenType: CoreConsumableTokenTypes; userId: string | null },
  ): Promise<ConsumedToken<TMetadata> | null> {
    const prefix = TOKEN_PREFIX[expected.tokenType];
    if (!token.startsWith(prefix) || !SECRET_PATTERN.test(token.slice(prefix.length))) return null;
    const { rows } = await this.db.query<TokenRow<TMetadata>>(
      `UPDATE wildo_consumable_tokens SET used_at = $4
       WHERE token_hash = $1 AND token_type = $2 AND user_id IS NOT DISTINCT FROM $3 AND consumption_mode = $5
         AND used_at IS NULL AND expires_at > $4
       RETURNING token_type, user_id, organization_id, resource_identifier, related_id, roles, metadata`,
      [
        hashOf(token),
        expected.tokenType,
        expected.userId,
        this.clock.now(),
        ConsumableToken_ConsumptionMode.SINGLE_USE,
      ],
    );
    const row = rows[0];
    return row ? bindingOf(row) : null;
  }

  /**
   * A token's public handle: its stored hash. It names the token (to read its state) without the power to
   * use it, so it can sit in a status URL where the token itself must not.
   */
  handleOf(token: string): string {
    return hashOf(token);
  }

  /** Reads a token of `tokenType` without using it (null when malformed or unknown), for checks made before consuming. */
  async inspect<TMetadata = unknown>(
    token: string,
    tokenType: CoreConsumableTokenTypes,
  ): Promise<InspectedToken<TMetadata> | null> {
    const prefix = TOKEN_PREFIX[tokenType];
    if (!token.startsWith(prefix) || !SECRET_PATTERN.test(token.slice(prefix.length))) return null;
    return this.inspectByHandle<TMetadata>(hashOf(token), tokenType);
  }

  /** Reads a token by its {@link handleOf} handle, used or not (null when unknown or of another kind). */
  async inspectByHandle<TMetadata = unknown>(
    handle: string,
    tokenType: CoreConsumableTokenTypes,
  ): Promise<InspectedToken<TMetadata> | null> {
    if (!SECRET_PATTERN.test(handle)) return null;
    const { rows } = await this.db.query<TokenRow<TMetadata> & { expires_at: Date; used_at: Date | null }>(
      `SELECT token_type, user_id, organization_id, resource_identifier, related_id, roles, metadata, expires_at, used_at
       FROM wildo_consumable_tokens WHERE token_hash = $1 AND token_type = $2`,
      [handle, tokenType],
    );
    const row = rows[0];
    return row ? { ...bindingOf(row), expiresAt: row.expires_at, usedAt: row.used_at } : null;
  }

  /** Replaces the server-side metadata of a used token (an outcome written back for its status readers). */
  async recordOutcome<TMetadata>(
    token: string,
    tokenType: CoreConsumableTokenTypes,
    metadata: TMetadata,
  ): Promise<void> {
    await this.db.query(
      'UPDATE wildo_consumable_tokens SET metadata = $3 WHERE token_hash = $1 AND token_type = $2 AND used_at IS NOT NULL',
      [hashOf(token), tokenType, JSON.stringify(metadata)],
    );
  }
}

function bindingOf<TMetadata>(row: TokenRow<TMetadata>): ConsumedToken<TMetadata> {
  return {
    tokenType: row.token_type,
    userId: row.user_id,
    organizationId: row.organization_id,
    resourceIdentifier: row.resource_identifier,
    relatedId: row.related_id,
    roles: row.roles,
    metadata: row.metadata,
  };
}
