import type { Command } from 'commander';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';
import { LINT_RULES } from '../engine/toolchain/doctor-rules.js';
import { DIFF_HELP, doctorHelp } from './toolchain-help.js';

/** What each toolchain command receives from the command tree. */
export interface ToolchainContext {
  output: CliOutput;
  style: CliStyle;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  setExitCode: (code: number) => void;
}

/** `wildo diff`, `doctor`, `verify`, `adopt`, `init`: the commands that keep declarations honest. */
export function addToolchainCommands(program: Command, context: ToolchainContext): void {
  const { output, style, cwd, setExitCode } = context;
  program
    .command('diff')
    .description('Compare two declaration sets and class each change as breaking, notable or compatible.')
    .argument('<before>', 'the application file (or saved snapshot .json) before the change')
    .argument('<after>', 'the application file (or saved snapshot .json) after the change')
    .option('--export <name>', 'the application export in both files; default: referenceApplication, else the first')
    .option('--json', 'print the changes as canonical JSON', false)
    .option('--save <file>', "also write the after side's snapshot to <file>")
    .addHelpText('after', DIFF_HELP)
    .action(async (before: string, after: string, options: { export?: string; json: boolean; save?: string }) => {
      const { runDiff } = await import('./diff.command.js');
      setExitCode(
        await runDiff(
          {
            cwd,
            before,
            after,
            json: options.json,
            ...(options.export ? { exportName: options.export } : {}),
            ...(options.save ? { save: options.save } : {}),
          },
          output,
          style,
        ),
      );
    });
  program
    .command('doctor')
    .description('Lint the declarations: what start-up accepts but is unsafe or half-done, with the fix.')
    .option('--root <dir>', 'the project root (the directory holding wildo.saas.config.ts); default: search upward')
    .option('--app <path>', 'the file exporting the application (relative to the working directory)')
    .option('--export <name>', 'the application export; default: referenceApplication, else the first')
    .option('--env-schema <file>', 'the file exporting BackendEnvironmentSchema; default: the convention, when present')
    .option('--json', 'print the findings as canonical JSON', false)
    .addHelpText('after', doctorHelp(LINT_RULES))
    .action(async (options: { root?: string; app?: string; export?: string; envSchema?: string; json: boolean }) => {
      const { runDoctor } = await import('./doctor.command.js');
      setExitCode(
        await runDoctor(
          {
            cwd,
            json: options.json,
            ...(options.root ? { root: options.root } : {}),
            ...(options.app ? { app: options.app } : {}),
            ...(options.export ? { exportName: options.export } : {}),
            ...(options.envSchema ? { envSchema: options.envSchema } : {}),
          },
          output,
          style,
        ),
      );
    });
}
