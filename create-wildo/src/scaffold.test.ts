import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScaffoldArguments, runScaffolder } from './cli.js';
import { scaffoldApplication } from './scaffold.js';
import { moduleNames, ScaffoldError } from './scaffold-options.js';
import { THIRD_PARTY_VERSIONS } from './templates.js';

const REPO = path.resolve(import.meta.dirname, '../..');
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'create-wildo-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8');

describe('scaffoldApplication', () => {
  it('writes an application with one module, its test, .ci/run and a README with the two commands', async () => {
    const dir = path.join(tmp, 'desk');
    const { files, nextSteps } = await scaffoldApplication({ dir, moduleName: 'purchase-orders', hostUi: false });
    expect(files).toEqual([
      '.ci/run',
      '.gitignore',
      'README.md',
      'package.json',
      'src/application.ts',
      'src/main.ts',
      'src/purchase-orders/purchase-orders-digest.service.ts',
      'src/purchase-orders/purchase-orders.module.ts',
      'src/purchase-orders/purchase-orders.test.ts',
      'tsconfig.json',
      'vitest.config.ts',
      'wildo.saas.config.ts',
    ]);
    expect(nextSteps).toEqual([`cd ${dir}`, 'npm install', 'npm start', 'npm test']);
    const module = await read(dir, 'src/purchase-orders/purchase-orders.module.ts');
    expect(module).toContain("type: 'purchase-orders'");
    expect(module).toContain('export const purchaseOrdersModule: BackendDomainModule');
    expect(module).not.toMatch(/\bas\s+[A-Z]|\bany\b/);
    expect(await read(dir, 'src/main.ts')).not.toContain('@wildo/frontend');
    expect(await read(dir, 'README.md')).toContain('npm start\n```');
    expect(await read(dir, 'README.md')).not.toContain('host UI');
    expect(await read(dir, '.ci/run')).toMatch(/npm install\nnpm test\n$/);
    expect((await stat(path.join(dir, '.ci/run'))).mode & 0o111).not.toBe(0);
    const manifest = JSON.parse(await read(dir, 'package.json')) as Record<string, any>;
    expect(manifest.name).toBe('desk');
    expect(manifest.dependencies['@wildo/backend-api']).toBe('^0.1.0');
    expect(manifest.dependencies['@wildo/frontend']).toBeUndefined();
    expect(manifest.overrides).toBeUndefined();
  });

  it('sets pnpm up, serves the host UI, and follows tarballs with overrides', async () => {
    const dir = path.join(tmp, 'with-pnpm');
    const tarball = 'file:/packs/wildo-backend-api-0.1.0.tgz';
    await scaffoldApplication({
      dir,
      packageManager: 'pnpm',
      frameworkSpecs: { '@wildo/backend-api': tarball },
    });
    const manifest = JSON.parse(await read(dir, 'package.json')) as Record<string, any>;
    expect(manifest.dependencies).toMatchObject({ '@wildo/backend-api': tarball, '@wildo/frontend': '^0.1.0' });
    expect(await read(dir, 'pnpm-workspace.yaml')).toContain(`'@wildo/backend-api': '${tarball}'`);
    expect(await read(dir, 'src/main.ts')).toContain('frontendDist: HOST_UI_DIRECTORY');
    expect(await read(dir, 'README.md')).toContain('a page generated from its declaration');
    expect(await read(dir, '.ci/run')).toMatch(/pnpm install\npnpm test\n$/);
  });

  it('refuses a directory that holds anything, and writes nothing there', async () => {
    const dir = path.join(tmp, 'taken');
    await scaffoldApplication({ dir: path.join(dir, 'sub') });
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    const before = await readdir(dir);
    await expect(scaffoldApplication({ dir })).rejects.toThrow(ScaffoldError);
    expect(await readdir(dir)).toEqual(before);
  });

  it('refuses a module name that is not a kebab-case resource type, naming the fix', () => {
    expect(moduleNames('purchase-orders')).toEqual({
      type: 'purchase-orders',
      pascal: 'PurchaseOrders',
      camel: 'purchaseOrders',
      display: 'Purchase orders',
    });
    for (const bad of ['Tickets', 'tickets_2', '-x', 'a--b', '../x'])
      expect(() => moduleNames(bad)).toThrow(/kebab-case/);
  });

  it('pins the third-party versions the workspace builds and tests with', async () => {
    const manifest = async (file: string) =>
      JSON.parse(await read(REPO, file)) as Record<string, Record<string, string>>;
    const root = await manifest('package.json');
    const backend = await manifest('backend-api/package.json');
    expect(THIRD_PARTY_VERSIONS).toEqual({
      zod: backend.dependencies?.zod,
      inversify: backend.dependencies?.inversify,
      tsx: root.devDependencies?.tsx,
      typescript: root.devDependencies?.typescript,
      vitest: root.devDependencies?.vitest,
      '@types/node': root.devDependencies?.['@types/node'],
    });
  });
});

describe('the create-wildo command', () => {
  it('prints its usage, and refuses unknown options and package managers with one line', async () => {
    expect(parseScaffoldArguments(['--help'])).toBe('help');
    const errors: string[] = [];
    expect(
      await runScaffolder(
        ['x', '--package-manager', 'yarn'],
        () => undefined,
        (line) => errors.push(line),
      ),
    ).toBe(1);
    expect(errors[0]).toBe('create-wildo: --package-manager must be npm or pnpm');
    expect(() => parseScaffoldArguments(['x', '--colour'])).toThrow(ScaffoldError);
    expect(() => parseScaffoldArguments(['x', '--from', path.join(tmp, 'nowhere')])).toThrow(/no such directory/);
  });

  it('scaffolds from its arguments and prints the next steps', async () => {
    const out: string[] = [];
    const dir = path.join(tmp, 'from-cli');
    expect(
      await runScaffolder(
        [dir, '--module', 'orders', '--no-host-ui'],
        (line) => out.push(line),
        () => undefined,
      ),
    ).toBe(0);
    expect(out).toEqual([
      `Wrote 12 files into ${dir}. Next:`,
      `  cd ${dir}`,
      '  npm install',
      '  npm start',
      '  npm test',
    ]);
    expect(await read(dir, 'src/orders/orders.module.ts')).toContain("type: 'orders'");
  });
});
