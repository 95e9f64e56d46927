import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BackendEnvironmentSchema } from '../environment.schema.js';
import { runWildoCli } from './wildo.cli.js';

// `wildo check` on the reference application as a developer runs it (the real bin in a child process, from the
// repository root), and on the fixture applications of check.fixtures.ts in this process (the same command and
// loader; a child process costs seconds of CPU to load the engine again).

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../../bin/wildo.mjs');
const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const FIXTURES = 'backend-api/src/cli/check.fixtures.ts';
// The backend's variables are not inherited: the check reads the environment as start-up would.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !Object.hasOwn(BackendEnvironmentSchema.shape, name)),
);

async function checkInChildProcess(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, 'check', ...args], {
      cwd: repositoryRoot,
      env,
      timeout: 60_000,
    });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { exitCode: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const check = (...args: string[]) => runWildoCli(['check', ...args], { cwd: repositoryRoot, env });

describe('wildo check', () => {
  it('accepts the reference application, counting what it validated', async () => {
    const result = await checkInChildProcess();
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    // The counts grow with the application: their shape is what is fixed here.
    expect(result.stdout).toMatch(
      /^wonder-todos: the environment, the configuration and every declaration are valid \(\d+ modules, \d+ resources, \d+ operation variants, \d+ agents, \d+ function tools, \d+ actor systems?\)\.\n$/,
    );
  }, 60_000);

  it('exits 1 with the start-up line for an approval-gated tool over an undeclared operation, and 0 once it is declared', async () => {
    expect(await check('--app', FIXTURES, '--export', 'notesWithoutUpdate')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        "The application's declarations are invalid (1 problem):\n" +
        '  - function tool "resource.notes.update" (module "notes") › resourceOperation.operation: resource "notes" declares no operation "update" (it declares "read"); ' +
        "a person would approve calls that always fail; declare it in the resource's operationsConfiguration, or build the tool over a declared one\n",
    });

    const accepted = await check('--app', FIXTURES, '--export', 'notesWithUpdate');
    expect(accepted).toMatchObject({ exitCode: 0, stderr: '' });
    expect(accepted.stdout).toContain('notes: the environment, the configuration and every declaration are valid');
  }, 60_000);
});
