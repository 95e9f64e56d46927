import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProjectRoot, readRuntimeConfiguration, type RuntimeConfiguration } from '@wildo/backend-api';
import { TEST_PASSWORD_HASHING } from '@wildo/backend-api/testing';

let cached: Promise<RuntimeConfiguration> | undefined;

/**
 * The reference application's committed runtime configuration, as `npm start` runs it, with an empty provider
 * environment (scenarios never reach a real model provider) and the test cost of password hashing (the scenarios
 * sign up dozens of people; the production cost is asserted in the identity tests).
 */
export async function referenceRuntimeOptions(): Promise<{
  runtime: RuntimeConfiguration;
  env: Record<string, string>;
  identity: { passwordHashing: typeof TEST_PASSWORD_HASHING };
}> {
  cached ??= readRuntimeConfiguration(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))));
  return { runtime: await cached, env: {}, identity: { passwordHashing: TEST_PASSWORD_HASHING } };
}
