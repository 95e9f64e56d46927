import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.js';
import { InProcessCoordination } from '../coordination/index.js';
import { toFrameworkError } from '../errors/index.js';
import { identitySettingsFor } from './identity-settings.js';
import { IDENTITY_MIGRATIONS } from './identity.migrations.js';
import type { AuthenticatedPrincipal } from './principal.types.js';
import { createSilentLogger } from '../logging/index.js';
import { createPgliteDatabase } from '../persistence/pglite-database.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { runMigrations } from '../persistence/sql-migrations.js';
import { OAUTH_MIGRATIONS } from '../oauth/oauth.migrations.js';
import { clientRevocationSubject, grantRevocationSubject } from './token-revocation-index.js';
import { TokenRevocations } from './token-revocations.service.js';
import { pgliteTemplateDump } from '../../testing/pglite-template.js';

const AUDIENCE = 'http://localhost:4241/api/v1/mcp';
const logger = createSilentLogger();
const settings = identitySettingsFor('http://localhost:4241');
let db: SqlDatabase;
const coordination = new InProcessCoordination({ logger });
const clock = new ManualClock(new Date('2026-06-01T12:00:00Z'));
const started: TokenRevocations[] = [];

beforeAll(async () => {
  db = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
  await runMigrations(db, [...IDENTITY_MIGRATIONS, ...OAUTH_MIGRATIONS], logger);
});

afterAll(async () => {
  for (const list of started) await list.stop();
  await coordination.close();
  await db.close();
});

async function startedList(database: SqlDatabase = db): Promise<TokenRevocations> {
  const list = new TokenRevocations(database, coordination, clock, settings, logger);
  await list.start();
  started.push(list);
  return list;
}

async function revoke(list: TokenRevocations, subject: string): Promise<void> {
  const afterCommit = await db.transaction((tx) => list.revokeWithin(tx, subject));
  await afterCommit();
}

const machine = (clientId: string): AuthenticatedPrincipal => ({
  kind: 'machine',
  executionType: ExecutionContext_ExecutionType.APPLICATION_MACHINE,
  clientId,
  roles: [],
  credential: { type: 'client_token', id: 'jti', audience: AUDIENCE },
});
const delegated = (userId: string, clientId: string, audience = AUDIENCE): AuthenticatedPrincipal => ({
  kind: 'user',
  userId,
  authorizationVersion: 1,
  credential: { type: 'delegated_token', id: 'jti', audience, authorizedParty: clientId },
});
const firstParty: AuthenticatedPrincipal = {
  kind: 'user',
  userId: 'u-1',
  authorizationVersion: 1,
  credential: { type: 'access_token', id: 'jti' },
};

/** The refusal reason of a check, or 'accepted'. */
function outcome(list: TokenRevocations, principal: AuthenticatedPrincipal, issuedAtMs: number): string {
  try {
    list.assertNotRevoked(principal, issuedAtMs);
    return 'accepted';
  } catch (error) {
    return toFrameworkError(error).reason ?? toFrameworkError(error).code;
  }
}

describe('TokenRevocations', () => {
  it('refuses a client’s tokens issued up to the revocation, its own and delegated ones; accepts one issued later', async () => {
    const list = await startedList();
    const before = clock.now().getTime() - 1_000;
    await revoke(list, clientRevocationSubject('client-a'));
    expect(outcome(list, machine('client-a'), before)).toBe('credential_invalid');
    expect(outcome(list, delegated('u-1', 'client-a'), before)).toBe('credential_invalid');
    expect(outcome(list, machine('client-a'), clock.now().getTime() + 1_000)).toBe('accepted');
    expect(outcome(list, machine('client-b'), before)).toBe('accepted');
  });

  it('refuses a withdrawn consent’s tokens only: same person and client for another audience, or another person, pass', async () => {
    const list = await startedList();
    const before = clock.now().getTime() - 1_000;
    await revoke(list, grantRevocationSubject('u-1', 'client-c', AUDIENCE));
    expect(outcome(list, delegated('u-1', 'client-c'), before)).toBe('credential_invalid');
    expect(outcome(list, delegated('u-1', 'client-c', `${AUDIENCE}/support`), before)).toBe('accepted');
    expect(outcome(list, delegated('u-2', 'client-c'), before)).toBe('accepted');
  });

  it('loads the stored revocations when a replica starts', async () => {
    const before = clock.now().getTime() - 1_000;
    await revoke(await startedList(), clientRevocationSubject('client-d'));
    const late = await startedList();
    expect(outcome(late, machine('client-d'), before)).toBe('credential_invalid');
    expect(outcome(late, machine('client-e'), before)).toBe('accepted');
  });

  it('forgets and deletes revocations older than any token could be', async () => {
    const list = await startedList();
    const before = clock.now().getTime() - 1_000;
    await revoke(list, clientRevocationSubject('client-f'));
    clock.advance((settings.accessTokenLifetimeMinutes + 6) * 60_000);
    const late = await startedList();
    expect(outcome(late, machine('client-f'), before)).toBe('accepted');
    const { rows } = await db.query('SELECT subject FROM wildo_token_revocations WHERE subject = $1', [
      clientRevocationSubject('client-f'),
    ]);
    expect(rows).toEqual([]);
  });

  it('fails closed: a list never read refuses client and delegated tokens; first-party user tokens pass', () => {
    const unread = new TokenRevocations(db, coordination, clock, settings, logger);
    expect(outcome(unread, machine('client-g'), clock.now().getTime())).toBe('identity_not_evaluable');
    expect(outcome(unread, delegated('u-1', 'client-g'), clock.now().getTime())).toBe('identity_not_evaluable');
    expect(outcome(unread, firstParty, clock.now().getTime())).toBe('accepted');
  });

  it('fails closed: a list that cannot be read stops the start', async () => {
    await db.query('ALTER TABLE wildo_token_revocations RENAME TO wildo_token_revocations_aside');
    const list = new TokenRevocations(db, coordination, clock, settings, logger);
    try {
      await expect(list.start()).rejects.toThrow(/wildo_token_revocations/);
    } finally {
      await list.stop();
      await db.query('ALTER TABLE wildo_token_revocations_aside RENAME TO wildo_token_revocations');
    }
    await expect(startedList()).resolves.toBeInstanceOf(TokenRevocations);
  });
});
