import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resolveScaffold, ScaffoldError, type ResolvedScaffold, type ScaffoldOptions } from './scaffold-options.js';
import * as templates from './templates.js';

/** The framework version this scaffolder writes (it is released with the framework's packages). */
export const FRAMEWORK_VERSION = '0.1.0';

/** What was written, and the commands to run next. */
export interface ScaffoldResult {
  scaffold: ResolvedScaffold;
  /** Paths relative to the application's directory, sorted. */
  files: string[];
  /** `cd <dir>`, then install, start and test with the chosen package manager. */
  nextSteps: string[];
}

/** The files of an application, by path relative to its directory. */
export function applicationFiles(scaffold: ResolvedScaffold): Record<string, string> {
  const folder = `src/${scaffold.module.type}`;
  return {
    'package.json': templates.packageJson(scaffold),
    ...(scaffold.packageManager === 'pnpm' ? { 'pnpm-workspace.yaml': templates.pnpmWorkspace(scaffold) } : {}),
    'tsconfig.json': templates.tsconfig(),
    'vitest.config.ts': templates.vitestConfig(),
    'wildo.saas.config.ts': templates.saasConfig(scaffold),
    'src/application.ts': templates.application(scaffold),
    'src/main.ts': templates.main(scaffold),
    [`${folder}/${scaffold.module.type}.module.ts`]: templates.moduleFile(scaffold),
    [`${folder}/${scaffold.module.type}-digest.service.ts`]: templates.digestService(scaffold),
    [`${folder}/${scaffold.module.type}.test.ts`]: templates.moduleTest(scaffold),
    '.ci/run': templates.ciRun(scaffold),
    '.gitignore': templates.gitignore(),
    'README.md': templates.readme(scaffold),
  };
}

/**
 * Writes a new application into `options.dir` (created; refused when it holds anything): a configuration, one module
 * (a resource with CRUD, a filter and an instance operation; an assistant with a read tool and an approval-gated
 * write tool), `main.ts`, a test, `.ci/run` and a README with the commands to run and test it.
 *
 * @example
 * const { nextSteps } = await scaffoldApplication({ dir: 'my-app', moduleName: 'tickets', packageManager: 'pnpm' });
 */
export async function scaffoldApplication(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const scaffold = resolveScaffold(options, FRAMEWORK_VERSION);
  const existing = await readdir(scaffold.dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (existing.length > 0)
    throw new ScaffoldError(`${scaffold.dir} is not empty; choose a new directory (nothing was written)`);
  const files = applicationFiles(scaffold);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(scaffold.dir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  await chmod(path.join(scaffold.dir, '.ci/run'), 0o755);
  const pm = scaffold.packageManager;
  return {
    scaffold,
    files: Object.keys(files).sort(),
    nextSteps: [`cd ${scaffold.dir}`, `${pm} install`, pm === 'npm' ? 'npm start' : 'pnpm start', `${pm} test`],
  };
}
