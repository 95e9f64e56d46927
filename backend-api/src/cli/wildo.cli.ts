import { Command, CommanderError } from 'commander';
import { createCapturedOutput, type CliOutput } from './cli.output.js';
import { runConfigSync } from './config-sync.command.js';

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
}

/** Builds the `wildo` command tree; `setExitCode` receives each action's exit code. */
export function createWildoProgram(output: CliOutput, cwd: string, setExitCode: (code: number) => void): Command {
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
    .action(async (options: { check: boolean; root?: string }) => {
      setExitCode(
        await runConfigSync({ cwd, check: options.check, ...(options.root ? { root: options.root } : {}) }, output),
      );
    });
  return program;
}

/**
 * Runs the `wildo` CLI on arguments (without `node` and the script) and returns its exit code and
 * output instead of writing to the process, so it can be tested as a function.
 *
 * @example
 * const { exitCode, stderr } = await runWildoCli(['config', 'sync', '--check']);
 */
export async function runWildoCli(argv: readonly string[], options: RunWildoCliOptions = {}): Promise<CliResult> {
  const output = createCapturedOutput();
  let exitCode = 0;
  const program = createWildoProgram(output, options.cwd ?? process.cwd(), (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    exitCode = error.exitCode;
  }
  return { exitCode, stdout: output.stdout(), stderr: output.stderr() };
}
