import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProjectRoot } from '../engine/config/project-root.js';
import { readRuntimeConfiguration } from '../engine/config/runtime-configuration.reader.js';
import type { RuntimeConfiguration } from '../engine/config/runtime-configuration.schema.js';

let cached: Promise<RuntimeConfiguration> | undefined;

/**
 * The repository's committed `runtime.json`, parsed once per test process. `wildo config sync --check` (run
 * before the suite) guarantees it matches `wildo.saas.config.ts`, so tests skip re-rendering it.
 */
export function readGeneratedRuntime(): Promise<RuntimeConfiguration> {
  cached ??= readRuntimeConfiguration(findProjectRoot(path.dirname(fileURLToPath(import.meta.url))));
  return cached;
}
