import { describe } from 'vitest';
import { openPostgresHarness, postgresTestUrl } from '../../persistence/postgres-test-schema.js';
import { describeTokenBudgetContract } from './token-budget.contract.js';

const url = postgresTestUrl();

describe.skipIf(url === undefined)('PostgreSQL (DATABASE_URL)', () => {
  describeTokenBudgetContract('PostgreSQL', () => openPostgresHarness(url ?? ''));
});
