import 'reflect-metadata';
import { A2A_TOKEN_BUDGET_FEATURE_ID } from '@wildo/shared-lib';
import { Container } from 'inversify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAAS_SERVICE_TYPES as T } from '../../container/saas-service-types.tokens.js';
import { FrameworkError } from '../../errors/index.js';
import { createSilentLogger, type Logger } from '../../logging/index.js';
import { createPgliteDatabase } from '../../persistence/pglite-database.js';
import type { SqlDatabase } from '../../persistence/sql-database.js';
import { runMigrations } from '../../persistence/sql-migrations.js';
import { BUDGET_STORE_RETRY_AFTER_SECONDS, SqlTokenBudgetService } from './sql-token-budget.service.js';
import { ManualClock } from '../../../testing/manual-clock.js';
import { openTestSchema } from '../../../testing/test-database.js';
import { BUDGET_TEST_PRODUCTS } from './token-budget.contract.js';
import { TOKEN_BUDGET_MIGRATIONS } from './token-budget.migrations.js';
import { tokenBudgetContainerModule, tokenBudgetsModule } from './token-budget.module.js';
import type { BudgetTenant, TokenBudgetService } from './token-budget.types.js';
import { pgliteTemplateDump } from '../../../testing/pglite-template.js';

const tenant: BudgetTenant = { kind: 'organization', organizationId: 'org-1' };
const clock = new ManualClock(new Date('2026-03-10T12:00:00.000Z'));

function recordingLogger(): Logger & { errors: { message: string; fields?: Record<string, unknown> }[] } {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  return {
    ...createSilentLogger(),
    errors,
    error: (message, fields) => void errors.push({ message, ...(fields ? { fields } : {}) }),
  };
}

/** A database whose every statement fails, as an unreachable server would. */
const brokenDatabase = {
  info: { dialect: 'postgres', vector: false },
  query: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
  exec: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
  transaction: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
  close: async () => {},
} as unknown as SqlDatabase;

describe('SqlTokenBudgetService fails closed', () => {
  it('refuses admission with SERVICE_UNAVAILABLE when the budget store cannot be read', async () => {
    const logger = recordingLogger();
    const service = new SqlTokenBudgetService(brokenDatabase, { products: BUDGET_TEST_PRODUCTS }, clock, logger);
    const error = await service.checkAdmission(tenant).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FrameworkError);
    expect(error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retryAfterSeconds: BUDGET_STORE_RETRY_AFTER_SECONDS,
    });
    expect((error as FrameworkError).message).not.toContain('ECONNREFUSED');
    expect(logger.errors).toEqual([
      {
        message: 'token budget store unavailable: refusing the turn (fail closed)',
        fields: { tenantKind: 'organization', error: 'Error: connect ECONNREFUSED 127.0.0.1:5432' },
      },
    ]);
  });

  it('refuses on a database that closed, and reports a failed recording as SERVICE_UNAVAILABLE', async () => {
    const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    await runMigrations(database, TOKEN_BUDGET_MIGRATIONS, createSilentLogger());
    const service = new SqlTokenBudgetService(database, { products: BUDGET_TEST_PRODUCTS }, clock, recordingLogger());
    await service.assignPlan(tenant, 'starter');
    expect(await service.checkAdmission(tenant)).toMatchObject({ kind: 'ok', allowanceTokens: 1_000 });
    await database.close();
    await expect(service.checkAdmission(tenant)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(service.recordConsumption(tenant, 10)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('refuses to start on an invalid product catalogue', () => {
    expect(
      () => new SqlTokenBudgetService(brokenDatabase, { products: [{ ref: 'Bad Ref' }] }, clock, createSilentLogger()),
    ).toThrow(/product catalogue is invalid/);
  });
});

describe('token budget wiring', () => {
  let database: SqlDatabase;
  beforeAll(async () => {
    database = await openTestSchema();
    await runMigrations(database, tokenBudgetsModule.migrations ?? [], createSilentLogger());
  });
  afterAll(() => database.close());

  it('resolves TokenBudgetService from the container with explicit @inject tokens', async () => {
    const container = new Container({ defaultScope: 'Singleton' });
    container.bind(T.Database).toConstantValue(database);
    container.bind(T.RuntimeConfiguration).toConstantValue({ products: BUDGET_TEST_PRODUCTS });
    container.bind(T.Clock).toConstantValue(clock);
    container.bind(T.Logger).toConstantValue(createSilentLogger());
    container.load(tokenBudgetContainerModule);
    const service = container.get<TokenBudgetService>(T.TokenBudgetService);
    expect(service).toBeInstanceOf(SqlTokenBudgetService);
    expect(container.get(T.TokenBudgetService)).toBe(service);
    await (service as SqlTokenBudgetService).setOverride(tenant, A2A_TOKEN_BUDGET_FEATURE_ID, { value: 10 });
    await service.recordConsumption(tenant, 10);
    expect(await service.checkAdmission(tenant)).toMatchObject({
      kind: 'over_budget',
      allowanceTokens: 10,
      consumedTokens: 10,
    });
  });

  it('works with the empty runtime configuration the backend binds by default', async () => {
    const service = new SqlTokenBudgetService(database, {}, clock, createSilentLogger());
    expect(await service.checkAdmission({ kind: 'user', userId: 'u-1' })).toEqual({
      kind: 'ok',
      allowanceTokens: null,
      consumedTokens: 0,
      source: 'none',
    });
    await expect(service.assignPlan({ kind: 'user', userId: 'u-1' }, 'personal')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
