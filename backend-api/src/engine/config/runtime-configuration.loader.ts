import { readFile } from 'node:fs/promises';
import type { SaaSConfig } from '@wildo/shared-lib';
import path from 'node:path';
import { GENERATED_FILES } from './config.constants.js';
import { GenerationStaleError } from './config.errors.js';
import { loadSaaSConfig } from './config-loader.js';
import { renderGeneration, type RenderedGeneration } from './generation.render.js';
import { compareGeneration } from './generation.store.js';
import { findProjectRoot } from './project-root.js';
import { RuntimeConfigurationSchema, type RuntimeConfiguration } from './runtime-configuration.schema.js';

/** Options of {@link loadRuntimeConfiguration}. */
export interface LoadRuntimeConfigurationOptions {
  /** The project root; found upward from the working directory when omitted. */
  rootDir?: string;
}

/** A validated configuration rendered in memory, ready to compare with or write to disk. */
export interface PreparedGeneration {
  rootDir: string;
  /** The validated configuration, defaults applied. */
  config: SaaSConfig;
  generation: RenderedGeneration;
}

/** Loads, validates and renders the configuration of a project root. The one path the CLI and the backend share. */
export async function prepareGeneration(rootDir: string): Promise<PreparedGeneration> {
  const config = await loadSaaSConfig(rootDir);
  return { rootDir, config, generation: renderGeneration(config) };
}

/**
 * Returns the runtime configuration the backend starts with. Re-renders the generation from the
 * current `wildo.saas.config.ts` and refuses (with {@link GenerationStaleError}) when the committed
 * files are missing or differ, so a backend never runs on a configuration nobody synchronized.
 *
 * @example
 * const runtime = await loadRuntimeConfiguration({ rootDir });
 * runtime.auth.consentGrantLifetimeDays; // 180
 */
export async function loadRuntimeConfiguration(
  options: LoadRuntimeConfigurationOptions = {},
): Promise<RuntimeConfiguration> {
  const rootDir = options.rootDir ?? findProjectRoot(process.cwd());
  const { generation } = await prepareGeneration(rootDir);
  const comparison = await compareGeneration(rootDir, generation);
  if (comparison.missing.length > 0 || comparison.stale.length > 0) {
    throw new GenerationStaleError(comparison.missing, comparison.stale);
  }
  const text = await readFile(path.join(rootDir, GENERATED_FILES.runtimeJson), 'utf8');
  const parsed = RuntimeConfigurationSchema.safeParse(JSON.parse(text));
  // Equal bytes to a fresh rendering that fails its own schema is a framework bug; still name the fix.
  if (!parsed.success) throw new GenerationStaleError([], [GENERATED_FILES.runtimeJson]);
  return parsed.data;
}
