import type { Command } from 'commander';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';
import { LINT_RULES } from '../engine/toolchain/doctor-rules.js';
import { ADOPT_HELP, DIFF_HELP, doctorHelp, INIT_HELP, VERIFY_HELP } from './toolchain-help.js';

/** What each toolchain command receives from the command tree. */
export interface ToolchainContext {
  output: CliOutput;
  style: CliStyle;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  setExitCode: (code: number) => void;
  /** Asks a person on a terminal (`wildo adopt`); absent when there is none. */
  prompt?: (question: string) => Promise<string | undefined>;
}

/** `wildo diff`, `doctor`, `verify`, `adopt`, `init`: the commands that keep declarations honest. */
export function addToolchainCommands(program: Command, context: ToolchainContext): void {
  const { output, style, cwd, env, setExitCode } = context;
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
  const declarationOptions = (command: Command) =>
    command
      .option('--manifest <dir>', 'a manifest directory holding the declarations (instead of an application file)')
      .option('--app <path>', 'the file exporting the application (relative to the working directory)')
      .option('--export <name>', 'the application export; default: referenceApplication, else the first')
      .option('--root <dir>', 'the project root; default: search upward')
      .option('--contracts <file>', 'the contract file; default: wildo.contract.json beside the declaration');
  type DeclarationFlags = { manifest?: string; app?: string; export?: string; root?: string; contracts?: string };
  const located = (options: DeclarationFlags) => ({
    cwd,
    env,
    ...(options.manifest ? { manifest: options.manifest } : {}),
    ...(options.app ? { app: options.app } : {}),
    ...(options.export ? { exportName: options.export } : {}),
    ...(options.root ? { root: options.root } : {}),
    ...(options.contracts ? { contracts: options.contracts } : {}),
  });
  declarationOptions(
    program
      .command('verify')
      .description(
        'Check that each connector-bound read still answers what its recorded contract says (green, yellow, red); --record records it.',
      ),
  )
    .option(
      '--record',
      'call each bound read with its fixture input and record the answer (paths and types only)',
      false,
    )
    .option('--strict', 'a gained field (yellow) fails the run too', false)
    .option('--json', 'print the verdicts as canonical JSON', false)
    .addHelpText('after', VERIFY_HELP)
    .action(async (options: DeclarationFlags & { record: boolean; strict: boolean; json: boolean }) => {
      const { runVerify } = await import('./verify.command.js');
      setExitCode(
        await runVerify(
          { ...located(options), record: options.record, strict: options.strict, json: options.json },
          output,
          style,
        ),
      );
    });
  declarationOptions(
    program
      .command('adopt')
      .description('Declare fields the backend gained, field by field, after a person says yes and describes each.'),
  )
    .option('--answers <file>', 'scripted answers (JSON) instead of a terminal')
    .addHelpText('after', ADOPT_HELP)
    .action(async (options: DeclarationFlags & { answers?: string }) => {
      const { runAdopt } = await import('./verify.command.js');
      setExitCode(
        await runAdopt(
          {
            ...located(options),
            ...(options.answers ? { answers: options.answers } : {}),
            ...(context.prompt ? { prompt: context.prompt } : {}),
          },
          output,
          style,
        ),
      );
    });
  program
    .command('init')
    .description(
      'List a candidate capability per operation of an OpenAPI description; write them once effects are decided.',
    )
    .argument('<openapi>', 'the OpenAPI 3.0 or 3.1 description (YAML or JSON)')
    .option('--decisions <file>', 'the effects a person decided (YAML or JSON), instead of a terminal')
    .option('--out <file>', 'where to write the candidates; default wildo.candidates.json')
    .addHelpText('after', INIT_HELP)
    .action(async (description: string, options: { decisions?: string; out?: string }) => {
      const { runInit } = await import('./init.command.js');
      setExitCode(
        await runInit(
          {
            cwd,
            description,
            ...(options.decisions ? { decisions: options.decisions } : {}),
            ...(options.out ? { out: options.out } : {}),
            ...(context.prompt ? { prompt: context.prompt } : {}),
          },
          output,
          style,
        ),
      );
    });
}
