import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { createCapturedOutput, type CliOutput } from './cli.output.js';
import {
  APPLICATION_EXPORT,
  APPLICATION_MODULE_FILE,
  APPLICATION_ROLES,
  BACKEND_ENTRY_FILE,
  CHECK_HELP,
  CONFIG_SYNC_HELP,
  DEV_HELP,
  NEW_HELP,
  EXPOSURE_HELP,
  USERS_ROLE_HELP,
  type RoleChangeKind,
} from './command-help.js';
import { runConfigSync } from './config-sync.command.js';
import { createStyle } from './cli.style.js';
import { addToolchainCommands } from './toolchain.commands.js';

/** What one CLI run produced: its exit code and everything it wrote to each stream. */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runWildoCli}. */
export interface RunWildoCliOptions {
  /** The working directory commands resolve paths from; defaults to `process.cwd()`. */
  cwd?: string;
  /** The environment operator commands read (`DATABASE_URL`, `WILDO_DATA_DIR`, `REDIS_URL`); defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where output also goes as it is written (the process entry streams it); it is returned either way. */
  forward?: CliOutput;
  /** Colours and progress lines (the process entry sets it on a terminal); default off. */
  colors?: boolean;
  /** Asks a person a question (the process entry sets it when standard input is a terminal); default none. */
  prompt?: (question: string) => Promise<string | undefined>;
}

/** Builds the `wildo` command tree; `setExitCode` receives each action's exit code. */
export function createWildoProgram(
  output: CliOutput,
  cwd: string,
  setExitCode: (code: number) => void,
  env: Readonly<Record<string, string | undefined>> = process.env,
  colors = false,
  prompt?: (question: string) => Promise<string | undefined>,
): Command {
  const program = new Command('wildo')
    .description('The Wildo framework command line.')
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) });
  const config = program.command('config').description('Work with wildo.saas.config.ts.');
  config
    .command('sync')
    .description('Validate wildo.saas.config.ts and generate .wildo-saas/generated.')
    .option('--check', 'write nothing; exit 1 when the generated files are missing or stale', false)
    .option('--root <dir>', 'the project root (the directory holding wildo.saas.config.ts); default: search upward')
    .option(
      '--app <path>',
      `with AI_CODING_AGENT on, the file exporting the application whose coding agents are checked; default: <root>/${APPLICATION_MODULE_FILE}`,
    )
    .option('--export <name>', `the application export; default: ${APPLICATION_EXPORT}, else the first application`)
    .addHelpText('after', CONFIG_SYNC_HELP)
    .action(async (options: { check: boolean; root?: string; app?: string; export?: string }) => {
      setExitCode(
        await runConfigSync(
          {
            cwd,
            check: options.check,
            ...(options.root ? { root: options.root } : {}),
            ...(options.app ? { app: options.app } : {}),
            ...(options.export ? { exportName: options.export } : {}),
          },
          output,
        ),
      );
    });
  program
    .command('exposure')
    .description(
      'Show what the application exposes over MCP: for every operation variant (engine modules included), whether it is a tool, ' +
        'on which catalogue, or why not; what a model sends and what it is shown (names and types only); and the tools each agent is offered.',
    )
    .option('--json', 'print a canonical JSON document (sorted keys and entries) for diffing in CI', false)
    .option('--root <dir>', 'the project root (the directory holding wildo.saas.config.ts); default: search upward')
    .option(
      '--app <path>',
      `the file exporting the application (relative to the working directory); default: <root>/${APPLICATION_MODULE_FILE}`,
    )
    .option(
      '--export <name>',
      `the export to report; default: ${APPLICATION_EXPORT}, else the first export shaped like an application`,
    )
    .option('--manifest <dir>', 'a manifest directory holding the declarations, instead of an application file')
    .option('--contracts <file>', 'the recorded contract file; default: wildo.contract.json beside the declaration')
    .addHelpText('after', EXPOSURE_HELP)
    .action(
      async (options: {
        json: boolean;
        root?: string;
        app?: string;
        export?: string;
        contracts?: string;
        manifest?: string;
      }) => {
        // Loaded when run: the other commands do not pay for the engine's import.
        const { runExposure } = await import('./exposure.command.js');
        setExitCode(
          await runExposure(
            {
              cwd,
              json: options.json,
              ...(options.root ? { root: options.root } : {}),
              ...(options.app ? { app: options.app } : {}),
              ...(options.export ? { exportName: options.export } : {}),
              ...(options.contracts ? { contracts: options.contracts } : {}),
              ...(options.manifest ? { manifest: options.manifest } : {}),
            },
            output,
          ),
        );
      },
    );
  addDevelopmentCommands(program, output, cwd, setExitCode, env);
  addUsersCommands(program, output, cwd, setExitCode, env);
  addToolchainCommands(program, {
    output,
    style: createStyle(colors, output),
    cwd,
    env,
    setExitCode,
    ...(prompt ? { prompt } : {}),
  });
  return program;
}

/** `wildo check` and `wildo dev`: the application developer's loop. */
function addDevelopmentCommands(
  program: Command,
  output: CliOutput,
  cwd: string,
  setExitCode: (code: number) => void,
  env: Readonly<Record<string, string | undefined>>,
): void {
  program
    .command('check')
    .description(
      'Validate the environment, the configuration and every declaration as start-up does, without a database or a server.',
    )
    .option('--root <dir>', 'the project root (the directory holding wildo.saas.config.ts); default: search upward')
    .option(
      '--app <path>',
      `the file exporting the application (relative to the working directory); default: <root>/${APPLICATION_MODULE_FILE}`,
    )
    .option(
      '--export <name>',
      `the export to check; default: ${APPLICATION_EXPORT}, else the first export shaped like an application`,
    )
    .addHelpText('after', CHECK_HELP)
    .action(async (options: { root?: string; app?: string; export?: string }) => {
      const { runCheck } = await import('./check.command.js');
      setExitCode(
        await runCheck(
          {
            cwd,
            env,
            ...(options.root ? { root: options.root } : {}),
            ...(options.app ? { app: options.app } : {}),
            ...(options.export ? { exportName: options.export } : {}),
          },
          output,
        ),
      );
    });
  program
    .command('new')
    .description('Write a new application into <dir> (the same as `npm create wildo@latest <dir>`).')
    .argument('<dir>', 'the directory to create (it must not exist or be empty)')
    .option('--module <name>', "the module's resource type, kebab-case and plural", 'tickets')
    .option('--package-manager <pm>', 'npm or pnpm', 'npm')
    .option('--no-host-ui', 'do not serve the host UI from the backend')
    .option('--name <package-name>', "the application's package name (default: the directory's name)")
    .option('--from <dir>', "install the framework's packages from the tarballs in <dir> (`pnpm pack` output)")
    .addHelpText('after', NEW_HELP)
    .action(
      async (
        dir: string,
        options: { module: string; packageManager: string; hostUi: boolean; name?: string; from?: string },
      ) => {
        const { runScaffolder } = await import('create-wildo');
        const target = path.relative(process.cwd(), path.resolve(cwd, dir)) || '.';
        const argv = [target, '--module', options.module, '--package-manager', options.packageManager];
        if (!options.hostUi) argv.push('--no-host-ui');
        if (options.name) argv.push('--name', options.name);
        if (options.from) argv.push('--from', path.resolve(cwd, options.from));
        setExitCode(
          await runScaffolder(
            argv,
            (line) => output.out(`${line}\n`),
            (line) => output.err(`${line}\n`),
          ),
        );
      },
    );
  program
    .command('dev')
    .description('Run the backend and restart it when a file it imports changes.')
    .option(
      '--stub-models',
      'answer model calls from local Anthropic and OpenAI stand-ins (no provider account)',
      false,
    )
    .option('--stub-script <file>', 'a module whose default export scripts the stand-ins (with --stub-models)')
    .option(
      '--entry <file>',
      `the backend entry (relative to the working directory); default: <root>/${BACKEND_ENTRY_FILE}`,
    )
    .option('--root <dir>', 'the project root (the directory holding wildo.saas.config.ts); default: search upward')
    .addHelpText('after', DEV_HELP)
    .action(async (options: { stubModels: boolean; stubScript?: string; entry?: string; root?: string }) => {
      const { runDev } = await import('./dev.command.js');
      setExitCode(
        await runDev(
          {
            cwd,
            env,
            stubModels: options.stubModels,
            ...(options.stubScript ? { stubScript: options.stubScript } : {}),
            ...(options.entry ? { entry: options.entry } : {}),
            ...(options.root ? { root: options.root } : {}),
          },
          output,
        ),
      );
    });
}

/** `wildo users grant-role|revoke-role --email <email> --role <role>`: operator commands run on the server. */
function addUsersCommands(
  program: Command,
  output: CliOutput,
  cwd: string,
  setExitCode: (code: number) => void,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const users = program
    .command('users')
    .description("Manage accounts in the application's database (run on the server, beside the backend).");
  const descriptions: Record<RoleChangeKind, string> = {
    grant: 'Give an existing account an application role (APP_ADMIN for the first administrator).',
    revoke: 'Take an application role from an account.',
  };
  for (const change of ['grant', 'revoke'] as const) {
    users
      .command(`${change}-role`)
      .description(descriptions[change])
      .requiredOption('--email <email>', "the account's email (any letter case)")
      .requiredOption('--role <role>', `the application role: ${APPLICATION_ROLES.join(' or ')}`)
      .option('--root <dir>', 'the project root, for the default data directory; default: search upward')
      .addHelpText('after', USERS_ROLE_HELP)
      .action(async (options: { email: string; role: string; root?: string }) => {
        const { runUsersRoleCommand } = await import('./users.command.js');
        setExitCode(
          await runUsersRoleCommand(
            {
              cwd,
              env,
              change,
              email: options.email,
              role: options.role,
              ...(options.root ? { root: options.root } : {}),
            },
            output,
          ),
        );
      });
  }
}

/**
 * Runs the `wildo` CLI on arguments (without `node` and the script) and returns its exit code and
 * output instead of writing to the process, so it can be tested as a function.
 *
 * @example
 * const { exitCode, stderr } = await runWildoCli(['config', 'sync', '--check']);
 */
export async function runWildoCli(argv: readonly string[], options: RunWildoCliOptions = {}): Promise<CliResult> {
  const output = createCapturedOutput(options.forward);
  let exitCode = 0;
  const program = createWildoProgram(
    output,
    options.cwd ?? process.cwd(),
    (code) => {
      exitCode = code;
    },
    options.env ?? process.env,
    options.colors ?? false,
    options.prompt,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = error.exitCode;
  }
  return { exitCode, stdout: output.stdout(), stderr: output.stderr() };
}
