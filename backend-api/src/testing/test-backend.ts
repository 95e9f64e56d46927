import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import type { BackendApplicationDefinition } from '../engine/container/backend-domain-module.js';
import { createWildoBackend, type WildoBackend, type WildoBackendOptions } from '../engine/container/wildo-backend.js';
import { createSilentLogger } from '../engine/logging/index.js';
import { createPgliteDatabase } from '../engine/persistence/pglite-database.js';
import type { SqlDatabase } from '../engine/persistence/sql-database.js';
import { referenceApplication } from '../modules/index.js';

/** A fixed primary secret for tests (never used outside them). */
export const TEST_PRIMARY_SECRET = 'test-primary-secret-0123456789-abcdefghijklmnop';

/**
 * Registers an in-memory PGlite database for the current test file (opened before, closed after all tests).
 * Tests share it and isolate themselves with fresh users and organizations.
 */
export function useTestDatabase(): () => SqlDatabase {
  let database: SqlDatabase | undefined;
  beforeAll(async () => {
    database = await createPgliteDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error('useTestDatabase(): the database is opened in beforeAll');
    return database;
  };
}

/** A backend for one test, with a supertest client bound to its app. */
export interface TestBackend {
  backend: WildoBackend;
  api: supertest.Agent;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Builds a backend on `database` with the reference application unless another is given. */
export async function createTestBackend(
  database: SqlDatabase,
  options: Partial<WildoBackendOptions> & { application?: BackendApplicationDefinition } = {},
): Promise<TestBackend> {
  const backend = await createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    primarySecret: TEST_PRIMARY_SECRET,
    coordinationKeyPrefix: `test:${randomUUID()}:`,
    ...options,
  });
  const close = () => backend.close();
  return { backend, api: supertest.agent(backend.app), close, [Symbol.asyncDispose]: close };
}
