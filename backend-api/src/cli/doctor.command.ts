import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { importModuleFile } from '../engine/config/module-import.js';
import { lintDeclarations, snapshotDeclarations, type LintFinding } from '../engine/toolchain/index.js';
import { loadApplication, type ApplicationLocation } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';
import { resolveProjectRoot } from './project-root.js';

/** Where `wildo doctor` finds the environment schema, relative to the project root, and its export. */
export const ENVIRONMENT_SCHEMA_FILE = 'backend-api/src/environment.schema.ts';
const ENVIRONMENT_SCHEMA_EXPORT = 'BackendEnvironmentSchema';

/** Options of `wildo doctor`. */
export interface DoctorOptions extends ApplicationLocation {
  json: boolean;
  /** The file exporting the environment schema (`BackendEnvironmentSchema`); default: the convention, when present. */
  envSchema?: string;
}

/** Lints the application's declarations; prints each finding with its rule, path and fix. Exit 1 on an error. */
export async function runDoctor(options: DoctorOptions, output: CliOutput, style: CliStyle): Promise<number> {
  let findings: LintFinding[];
  let checked: number;
  let source: string;
  try {
    const loaded = await loadApplication(options);
    const snapshot = snapshotDeclarations(loaded.application);
    const environment = await loadEnvironmentSchema(options);
    findings = lintDeclarations(snapshot, environment ? { environment } : {});
    checked = snapshot.capabilities.length;
    source = `${snapshot.application} (${loaded.exportName} in ${loaded.file})`;
  } catch (error) {
    output.err(`wildo doctor: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  if (options.json) output.out(toCanonicalJson({ checked, findings }));
  else {
    const lines = [`Declarations of ${source}`];
    for (const finding of findings) {
      const mark = finding.severity === 'error' ? style.red('error  ') : style.yellow('warning');
      lines.push(
        `  ${mark}  ${style.bold(finding.capability)}  ${finding.message} (${finding.rule})`,
        style.dim(`           at ${finding.path}`),
        `           fix: ${finding.fix}`,
      );
    }
    lines.push(`${checked} capabilities checked: ${errors} errors, ${findings.length - errors} warnings`);
    output.out(`${lines.join('\n')}\n`);
  }
  return errors > 0 ? 1 : 0;
}

async function loadEnvironmentSchema(options: DoctorOptions): Promise<z.ZodObject | undefined> {
  let file: string;
  if (options.envSchema !== undefined) file = path.resolve(options.cwd, options.envSchema);
  else {
    let root: string;
    try {
      root = resolveProjectRoot(options);
    } catch {
      return undefined;
    }
    file = path.join(root, ENVIRONMENT_SCHEMA_FILE);
    if (!existsSync(file)) return undefined;
  }
  const exports = await importModuleFile(file, { fsCache: true });
  const schema = exports[ENVIRONMENT_SCHEMA_EXPORT] as { shape?: unknown } | undefined;
  if (!schema || typeof schema.shape !== 'object')
    throw new Error(`${path.relative(options.cwd, file)} exports no ${ENVIRONMENT_SCHEMA_EXPORT} (a z.object)`);
  return schema as z.ZodObject;
}
