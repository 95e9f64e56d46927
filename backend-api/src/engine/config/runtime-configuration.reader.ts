import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { GENERATED_FILES } from './config.constants.js';
import { RuntimeConfigurationSchema, type RuntimeConfiguration } from './runtime-configuration.schema.js';

/**
 * Reads the committed `.wildo-saas/generated/runtime.json` of a project root and validates its shape, without
 * re-rendering `wildo.saas.config.ts` (tests, benchmarks and scenarios run after `wildo config sync --check`).
 * Servers start with `loadRuntimeConfiguration`, which also refuses a stale generation.
 */
export async function readRuntimeConfiguration(rootDir: string): Promise<RuntimeConfiguration> {
  const raw = await readFile(path.join(rootDir, GENERATED_FILES.runtimeJson), 'utf8');
  return RuntimeConfigurationSchema.parse(JSON.parse(raw));
}
