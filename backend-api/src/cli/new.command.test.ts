import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWildoCli } from './wildo.cli.js';

// `wildo new <dir>` is the scaffolder of `npm create wildo` (create-wildo), reached from the CLI.
describe('wildo new', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'wildo-new-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('writes an application with the chosen module and package manager, relative to the working directory', async () => {
    const result = await runWildoCli(['new', 'desk', '--module', 'orders', '--package-manager', 'pnpm'], { cwd: tmp });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('pnpm install');
    expect(await readdir(path.join(tmp, 'desk/src/orders'))).toContain('orders.module.ts');
    expect(JSON.parse(await readFile(path.join(tmp, 'desk/package.json'), 'utf8'))).toMatchObject({ name: 'desk' });
  });

  it('refuses a directory that is not empty, with one line and exit 1', async () => {
    const result = await runWildoCli(['new', 'desk'], { cwd: tmp });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('is not empty; choose a new directory');
  });
});
