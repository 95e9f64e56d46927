import { existsSync } from 'node:fs';
import path from 'node:path';
import { describeLoadFailure } from '../engine/config/load-failure.js';
import { importModuleFile, type ModuleImporter } from '../engine/config/module-import.js';
import type { BackendApplicationDefinition } from '../engine/bootstrap/backend-domain-module.js';
import { APPLICATION_EXPORT, APPLICATION_MODULE_FILE } from './command-help.js';
import { resolveProjectRoot, type ProjectRootOptions } from './project-root.js';

// How `wildo exposure` and `wildo check` find the application: the convention under the project root, or --app
// and --export.

/** Where a command looks for the application. */
export interface ApplicationLocation extends ProjectRootOptions {
  /** The file holding the application (relative to `cwd`) instead of the convention. */
  app?: string;
  /** The export to take instead of `referenceApplication` or the first application-shaped one. */
  exportName?: string;
}

/** The application could not be found or loaded: one clean message (no stack). */
export class ApplicationLoadError extends Error {
  override readonly name = 'ApplicationLoadError';
}

/** The loaded application and where it came from (paths relative to the root, or to `cwd` with `--app`). */
export interface LoadedApplication {
  application: BackendApplicationDefinition;
  file: string;
  exportName: string;
}

/** Resolves the application file (`--app`, else the convention under the project root) and picks the export. */
export async function loadApplication(options: ApplicationLocation): Promise<LoadedApplication> {
  const { file, shown, base } = locateApplication(options);
  const exports = await importApplicationFile(file, shown, base);
  const exportName = pickExport(exports, shown, options.exportName);
  return { application: exports[exportName] as BackendApplicationDefinition, file: shown, exportName };
}

/** The absolute file, how to show it (relative, so reports do not depend on the machine) and what it is relative to. */
function locateApplication(options: ApplicationLocation): { file: string; shown: string; base: string } {
  if (options.app !== undefined) {
    const file = path.resolve(options.cwd, options.app);
    const shown = path.relative(options.cwd, file) || file;
    if (!existsSync(file)) throw new ApplicationLoadError(`No application file at ${shown}.`);
    return { file, shown, base: options.cwd };
  }
  const rootDir = resolveProjectRoot(options);
  const file = path.join(rootDir, APPLICATION_MODULE_FILE);
  if (!existsSync(file)) {
    throw new ApplicationLoadError(
      `No ${APPLICATION_MODULE_FILE} in ${rootDir}; pass the file that exports the application as --app <path>.`,
    );
  }
  return { file, shown: APPLICATION_MODULE_FILE, base: rootDir };
}

/**
 * Evaluates the application file (see {@link importModuleFile}); where jiti has to transpile the application and
 * the engine, its file cache, keyed by each file's content, lets a later run transpile only what changed.
 */
export async function importApplicationFile(
  file: string,
  shown: string,
  base: string,
  hostImport?: ModuleImporter,
): Promise<Record<string, unknown>> {
  try {
    return await importModuleFile(file, { fsCache: true }, hostImport);
  } catch (error) {
    throw new ApplicationLoadError(`${shown} could not be loaded: ${describeLoadFailure(error, base)}`);
  }
}

/** `--export`, else `referenceApplication`, else the first application-shaped export in namespace (alphabetical) order. */
function pickExport(exports: Record<string, unknown>, shown: string, requested: string | undefined): string {
  const names = Object.keys(exports)
    .filter((name) => name !== '__esModule')
    .sort();
  const listed = names.length > 0 ? names.join(', ') : 'none';
  if (requested !== undefined) {
    if (!(requested in exports))
      throw new ApplicationLoadError(`${shown} has no export "${requested}" (its exports: ${listed}).`);
    if (!isApplication(exports[requested])) {
      throw new ApplicationLoadError(
        `Export "${requested}" of ${shown} is not an application: expected { name, modules: [...] } as defineBackendApplication returns.`,
      );
    }
    return requested;
  }
  if (isApplication(exports[APPLICATION_EXPORT])) return APPLICATION_EXPORT;
  const found = names.find((name) => isApplication(exports[name]));
  if (found) return found;
  throw new ApplicationLoadError(
    `${shown} exports no application (its exports: ${listed}); export one made with defineBackendApplication (preferably as ${APPLICATION_EXPORT}) or pass --export <name>.`,
  );
}

/** What `defineBackendApplication` returns: a name and a list of named modules. */
function isApplication(value: unknown): value is BackendApplicationDefinition {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { name?: unknown; modules?: unknown };
  return (
    typeof candidate.name === 'string' &&
    Array.isArray(candidate.modules) &&
    candidate.modules.every(
      (m) => m !== null && typeof m === 'object' && typeof (m as { name?: unknown }).name === 'string',
    )
  );
}
