import { randomUUID } from 'node:crypto';
import express from 'express';
import supertest from 'supertest';
import { expect } from 'vitest';
import type { BackendApplicationDefinition } from '../engine/bootstrap/backend-domain-module.js';
import { createWildoBackend, type WildoBackend, type WildoBackendOptions } from '../engine/bootstrap/wildo-backend.js';
import { createSilentLogger } from '../engine/logging/index.js';
import type { SqlDatabase } from '../engine/persistence/sql-database.js';
import { referenceApplication } from '../modules/index.js';
import { readGeneratedRuntime } from './generated-runtime.js';
import { TEST_PASSWORD_HASHING } from './password-hashing.js';

export { openTestSchema, useTestDatabase } from './test-database.js';

/** A fixed primary secret for tests (never used outside them). */
export const TEST_PRIMARY_SECRET = 'test-primary-secret-0123456789-abcdefghijklmnop';

/** A backend for one test, with a supertest client bound to its app. */
export interface TestBackend {
  backend: WildoBackend;
  api: supertest.Agent;
  /** Responses with a 5xx status seen so far (method, path, status). */
  serverErrors: string[];
  /**
   * A client with a cookie jar of its own: another device (`api` keeps the cookies of every response it saw, so an
   * account signed up through it signs in again from a device it knows).
   */
  newDevice(): supertest.Agent;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Builds a backend on `database` with the reference application unless another is given. */
export async function createTestBackend(
  database: SqlDatabase,
  options: Partial<WildoBackendOptions> & {
    application?: BackendApplicationDefinition;
    allowServerErrors?: boolean;
  } = {},
): Promise<TestBackend> {
  const { allowServerErrors = false, ...backendOptions } = options;
  const backend = await createWildoBackend({
    application: referenceApplication,
    database,
    logger: createSilentLogger(),
    primarySecret: TEST_PRIMARY_SECRET,
    coordinationKeyPrefix: `test:${randomUUID()}:`,
    // The committed runtime configuration, with no credentials: no test reaches a real provider unless it
    // passes `env` pointing a provider at a local stub.
    runtime: await readGeneratedRuntime(),
    env: {},
    ...backendOptions,
    identity: { passwordHashing: TEST_PASSWORD_HASHING, ...backendOptions.identity },
  });
  // Every response passes through this wrapper so a test that provokes an unexpected 5xx fails on close.
  const serverErrors: string[] = [];
  const outer = express();
  outer.use((req, res, next) => {
    res.on('finish', () => {
      if (res.statusCode >= 500) serverErrors.push(`${req.method} ${req.originalUrl} -> ${res.statusCode}`);
    });
    next();
  });
  outer.use(backend.app);
  const close = async () => {
    await backend.close();
    if (!allowServerErrors) expect(serverErrors, 'responses with a 5xx status').toEqual([]);
  };
  return {
    backend,
    api: supertest.agent(outer),
    serverErrors,
    newDevice: () => supertest.agent(outer),
    close,
    [Symbol.asyncDispose]: close,
  };
}
