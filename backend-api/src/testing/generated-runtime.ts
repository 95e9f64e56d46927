import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILES } from '../engine/config/config.constants.js';
import { findProjectRoot } from '../engine/config/project-root.js';
import { RuntimeConfigurationSchema, type RuntimeConfiguration } from '../engine/config/runtime-configuration.schema.js';

let cached: Promise<RuntimeConfiguration> | undefined;

/**
 * The repository's committed `runtime.json`, parsed once per test process. `wildo config sync --check` (run
 * before the suite) guarantees it matches `wildo.saas.config.ts`, so tests skip re-rendering it.
 */
export function readGeneratedRuntime(): Promise<RuntimeConfiguration> {
  cached ??= (async () => {
    const root = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
    const raw = await readFile(path.join(root, GENERATED_FILES.runtimeJson), 'utf8');
    return RuntimeConfigurationSchema.parse(JSON.parse(raw));
  })();
  return cached;
}
