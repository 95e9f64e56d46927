import { ConsumableToken_ConsumptionMode, CoreConsumableTokenTypes, DurationUnit } from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.js';
import { useTestDatabase } from '../../testing/test-database.js';
import { createSilentLogger } from '../logging/index.js';
import { runMigrations } from '../persistence/sql-migrations.js';
import { ConsumableTokenService } from './consumable-tokens.service.js';
import { IDENTITY_MIGRATIONS } from './identity.migrations.js';

const database = useTestDatabase();
const clock = new ManualClock(new Date('2026-06-01T12:00:00Z'));
let tokens: ConsumableTokenService;
const ADA = 'user-ada';
const GRACE = 'user-grace';
const { REAUTH_PROOF, OAUTH_CONSENT_REQUEST } = CoreConsumableTokenTypes;

beforeAll(async () => {
  await runMigrations(database(), IDENTITY_MIGRATIONS, createSilentLogger());
  for (const id of [ADA, GRACE]) {
    await database().query(
      `INSERT INTO wildo_users (id, email, email_normalized, password_hash, app_roles, created_at, updated_at) VALUES ($1, $2, $2, 'x', '[]', now(), now())`,
      [id, `${id}@example.test`],
    );
  }
  tokens = new ConsumableTokenService(database(), clock);
});

const fiveMinutes = { value: 5, unit: DurationUnit.MINUTES };
const mint = (tokenType = REAUTH_PROOF, userId: string | undefined = ADA, metadata?: unknown) =>
  tokens.createToken({
    tokenType,
    consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
    expiresIn: fiveMinutes,
    ...(userId ? { userId } : {}),
    metadata,
  });

describe('ConsumableTokenService', () => {
  it('mints a prefixed 256-bit token with its lifetime from the declared duration', async () => {
    const issued = await mint();
    expect(issued.token).toMatch(/^ra_[A-Za-z0-9_-]{43}$/);
    expect(issued.expiresIn).toBe(300);
    expect(issued.expiresAt.toISOString()).toBe('2026-06-01T12:05:00.000Z');
    const stored = await database().query<{ token_hash: string }>('SELECT token_hash FROM wildo_consumable_tokens');
    expect(JSON.stringify(stored.rows)).not.toContain(issued.token.slice(3));
  });

  it('is consumed once by the person it is bound to, with its binding and metadata', async () => {
    const { token } = await mint(OAUTH_CONSENT_REQUEST, ADA, { clientId: 'c1', scopes: ['openid'] });
    expect(token.startsWith('wcr_')).toBe(true);
    const consumed = await tokens.consume(token, { tokenType: OAUTH_CONSENT_REQUEST, userId: ADA });
    expect(consumed).toMatchObject({
      tokenType: OAUTH_CONSENT_REQUEST,
      userId: ADA,
      roles: [],
      metadata: { clientId: 'c1', scopes: ['openid'] },
    });
    expect(await tokens.consume(token, { tokenType: OAUTH_CONSENT_REQUEST, userId: ADA })).toBeNull();
  });

  it('refuses another person, another kind or a token bound to nobody without consuming it', async () => {
    const { token } = await mint();
    expect(await tokens.consume(token, { tokenType: REAUTH_PROOF, userId: GRACE })).toBeNull();
    expect(await tokens.consume(token, { tokenType: OAUTH_CONSENT_REQUEST, userId: ADA })).toBeNull();
    expect(await tokens.consume(token, { tokenType: REAUTH_PROOF, userId: null })).toBeNull();
    expect(await tokens.consume(token, { tokenType: REAUTH_PROOF, userId: ADA })).not.toBeNull();
  });

  it('refuses an expired token', async () => {
    const { token } = await mint();
    clock.advance(5 * 60_000);
    expect(await tokens.consume(token, { tokenType: REAUTH_PROOF, userId: ADA })).toBeNull();
  });

  it('refuses malformed tokens before reading anything', async () => {
    for (const token of ['', 'ra_short', `ra_${'A'.repeat(42)}\u0000`, `wcr_${'A'.repeat(43)}`]) {
      expect(await tokens.consume(token, { tokenType: REAUTH_PROOF, userId: ADA })).toBeNull();
    }
  });

  it('lets exactly one of two concurrent uses through', async () => {
    const { token } = await mint();
    const results = await Promise.all(
      [1, 2].map(() => tokens.consume(token, { tokenType: REAUTH_PROOF, userId: ADA })),
    );
    expect(results.filter((result) => result !== null)).toHaveLength(1);
  });

  it('refuses a lifetime that is not positive', async () => {
    await expect(
      tokens.createToken({
        tokenType: REAUTH_PROOF,
        consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
        expiresIn: { value: 0, unit: DurationUnit.SECONDS },
        userId: ADA,
      }),
    ).rejects.toThrow(RangeError);
  });
});
