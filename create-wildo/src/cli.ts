import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scaffoldApplication } from './scaffold.js';
import {
  FRAMEWORK_PACKAGES,
  PACKAGE_MANAGERS,
  ScaffoldError,
  type FrameworkPackage,
  type PackageManager,
  type ScaffoldOptions,
} from './scaffold-options.js';

/** How to call the scaffolder (`create-wildo` and `wildo new` take the same arguments). */
export const SCAFFOLD_USAGE = `Usage: create-wildo <dir> [options]   (npm create wildo@latest <dir>, or wildo new <dir>)

Writes a new Wildo application into <dir>: wildo.saas.config.ts, one module (a resource with CRUD, a filter and
an instance operation; an assistant with a read tool and an approval-gated write tool), main.ts, a test, .ci/run
and a README with the commands to run and test it.

Options:
  --module <name>            the module's resource type, kebab-case and plural (default: tickets)
  --package-manager <pm>     ${PACKAGE_MANAGERS.join(' or ')} (default: npm)
  --no-host-ui               do not serve the host UI from the backend
  --name <package-name>      the application's package name (default: the directory's name)
  --from <dir>               install the framework's packages from the tarballs in <dir> (\`pnpm pack\` output)
                             instead of the registry
  -h, --help                 this text`;

/** Reads the scaffolder's arguments; throws a {@link ScaffoldError} naming what is wrong. */
export function parseScaffoldArguments(argv: readonly string[]): ScaffoldOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        module: { type: 'string' },
        'package-manager': { type: 'string' },
        'host-ui': { type: 'boolean' },
        'no-host-ui': { type: 'boolean' },
        name: { type: 'string' },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new ScaffoldError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new ScaffoldError('name one directory to write the application into');
  const packageManager = values['package-manager'];
  if (packageManager !== undefined && !(PACKAGE_MANAGERS as readonly string[]).includes(packageManager))
    throw new ScaffoldError(`--package-manager must be ${PACKAGE_MANAGERS.join(' or ')}`);
  return {
    dir: positionals[0] ?? '',
    ...(values.module === undefined ? {} : { moduleName: values.module }),
    ...(packageManager === undefined ? {} : { packageManager: packageManager as PackageManager }),
    ...(values['no-host-ui'] ? { hostUi: false } : {}),
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(values.from === undefined ? {} : { frameworkSpecs: tarballSpecs(values.from) }),
  };
}

/** `file:` specs of the framework's tarballs in `dir` (`wildo-backend-api-0.1.0.tgz`, ...). */
function tarballSpecs(dir: string): Partial<Record<FrameworkPackage, string>> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new ScaffoldError(`--from ${dir}: no such directory`);
  }
  const specs: Partial<Record<FrameworkPackage, string>> = {};
  for (const name of FRAMEWORK_PACKAGES) {
    const prefix = `${name.replace('@', '').replace('/', '-')}-`;
    const tarball = names.find((file) => file.startsWith(prefix) && file.endsWith('.tgz'));
    if (tarball) specs[name] = `file:${path.resolve(dir, tarball)}`;
  }
  if (!specs['@wildo/backend-api'] || !specs['@wildo/shared-lib'])
    throw new ScaffoldError(`--from ${dir}: no wildo-backend-api-*.tgz and wildo-shared-lib-*.tgz there`);
  return specs;
}

/** Runs the scaffolder with `argv`, writing to `out` and `err`; returns the exit code. */
export async function runScaffolder(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  try {
    const options = parseScaffoldArguments(argv);
    if (options === 'help') {
      out(SCAFFOLD_USAGE);
      return 0;
    }
    const result = await scaffoldApplication(options);
    out(`Wrote ${result.files.length} files into ${result.scaffold.dir}. Next:`);
    for (const step of result.nextSteps) out(`  ${step}`);
    return 0;
  } catch (error) {
    if (!(error instanceof ScaffoldError)) throw error;
    err(`create-wildo: ${error.message}`);
    err('Run with --help for the options.');
    return 1;
  }
}
