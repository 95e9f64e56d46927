import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configSource,
  createTempProject,
  validConfigFixture,
  type TempProject,
} from '../engine/config/config.fixtures.js';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { buildApplicationExposure } from '../engine/toolchain/index.js';
import { referenceApplication } from '../modules/index.js';

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, '../../bin/wildo.mjs');
const projects: TempProject[] = [];

afterEach(async () => {
  await Promise.all(projects.splice(0).map((p) => p.cleanup()));
});

/** Runs the real `bin/wildo.mjs` in a child process from `cwd`; resolves with its exit code and output. */
async function spawnWildo(cwd: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd, timeout: 60_000 });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { exitCode: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('bin/wildo.mjs', () => {
  it("runs `config sync` through tsx in a child process and exits with the command's code", async () => {
    const p = await createTempProject(configSource(validConfigFixture()));
    projects.push(p);
    const synced = await spawnWildo(p.rootDir, ['config', 'sync']);
    expect(synced).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await p.listGenerated()).toEqual(['provider-catalog.types.ts', 'runtime.env', 'runtime.json']);
    const checked = await spawnWildo(p.rootDir, ['config', 'sync', '--check']);
    expect(checked.exitCode).toBe(0);
  }, 60_000);

  it('runs `exposure` from the repository root, where only the package tsconfig enables decorators', async () => {
    const result = await spawnWildo(path.resolve(import.meta.dirname, '../../..'), ['exposure', '--json']);
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(result.stdout).application).toBe('wonder-todos');
    // The child loaded its own copy of the application; this file imported another: byte for byte the same.
    expect(result.stdout.trimEnd()).toBe(toCanonicalJson(buildApplicationExposure(referenceApplication)).trimEnd());
  }, 60_000);

  it('runs `users grant-role` and exits 1 with one line for an unknown role', async () => {
    const result = await spawnWildo(path.resolve(import.meta.dirname, '../../..'), [
      'users',
      'grant-role',
      '--email',
      'ada@example.com',
      '--role',
      'ROOT',
    ]);
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'wildo users grant-role: unknown application role "ROOT"; use one of APP_ADMIN, APP_USER.\n',
    });
  }, 60_000);

  it('exits 1 with `<path>: <message>` lines for an invalid configuration', async () => {
    const config = validConfigFixture();
    config.frontendServices = {};
    const p = await createTempProject(configSource(config));
    projects.push(p);
    const result = await spawnWildo(p.rootDir, ['config', 'sync']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^runtime\.endPoints\.web: /m);
    expect(await p.listGenerated()).toEqual([]);
  }, 60_000);
});
