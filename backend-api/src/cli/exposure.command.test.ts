import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import { buildApplicationExposure } from '../engine/toolchain/index.js';
import { referenceApplication } from '../modules/index.js';
import { APPLICATION_MODULE_FILE } from './exposure.command.js';
import { renderExposureReport } from './exposure.render.js';
import { runWildoCli } from './wildo.cli.js';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
// Loading the reference application may compile the engine (jiti, where the host has no TypeScript loader).
const LOADS_ENGINE = 60_000;
const STACK_FRAME = /^\s+at /m;
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A project root (it holds wildo.saas.config.ts) with `modules` as its application file, when given. */
async function project(modules?: string): Promise<string> {
  const rootDir = await mkdtemp(path.join(tmpdir(), 'wildo-exposure-'));
  dirs.push(rootDir);
  await writeFile(path.join(rootDir, 'wildo.saas.config.ts'), 'export default {};\n');
  if (modules !== undefined) {
    await mkdir(path.dirname(path.join(rootDir, APPLICATION_MODULE_FILE)), { recursive: true });
    await writeFile(path.join(rootDir, APPLICATION_MODULE_FILE), modules);
  }
  return rootDir;
}

function exposure(cwd: string, ...args: string[]) {
  return runWildoCli(['exposure', ...args], { cwd });
}

/** Runs once, on first use: one run on the reference application serves every test that reads its report. */
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}

// The one CLI run on the reference application in this file (its JSON form runs through the real binary in
// wildo.bin.test.ts); the JSON mode is checked here on an application with no modules of its own, which still
// carries every engine module.
const humanRun = once(() => exposure(path.join(repositoryRoot, 'backend-api', 'src')));
const bareApplication = { name: 'bare', modules: [] };
const bareJsonRun = once(async () =>
  exposure(await project(`export const application = ${JSON.stringify(bareApplication)};\n`), '--json'),
);

describe('wildo exposure on the reference application', () => {
  it(
    'finds the application by searching upward and prints the tools of each catalogue',
    async () => {
      const result = await humanRun();
      expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(result.stdout).toContain('referenceApplication in backend-api/src/modules/index.ts');
      expect(result.stdout).toMatch(/^ {2}create +default +ORG_MEMBER +stable +exposed on default as todos__create$/m);
      expect(result.stdout).toMatch(/^ {2}stats +default +ORG_MEMBER +stable +exposed on support as todos__stats$/m);
    },
    LOADS_ENGINE,
  );

  it(
    'says why an operation is not exposed and what an exposed one takes and returns',
    async () => {
      const { stdout } = await humanRun();
      expect(stdout).toMatch(/^ {2}create +default +APP_ADMIN +stable +not exposed: mcp\.exposed is not set$/m);
      expect(stdout).toMatch(/^ {4}sends {2}note: string$/m);
      expect(stdout).toContain('checklist[].label: string (required)');
      expect(stdout).toMatch(/^ {4}shown {2}byStatus: object \(required\)$/m);
    },
    LOADS_ENGINE,
  );

  it(
    'lists the tools each agent is offered, under the names its model sees, and when a call runs',
    async () => {
      const { stdout } = await humanRun();
      expect(stdout).toMatch(
        /^ {2}todo-assistant\.chat\.agent +resource_todos_read +resource\.todos\.read +todos\.read +at once \(read-only\)$/m,
      );
      expect(stdout).toMatch(
        /^ {2}todo-assistant\.chat\.agent +resource_todos_update +resource\.todos\.update +todos\.update +after a person approves$/m,
      );
      expect(stdout).toMatch(
        /^ {2}resource_todos_update \(todo-assistant\.chat\.agent\)\n {4}sends {2}id: string \(required\)\n {11}title: string \(required\)$/m,
      );
      expect(buildApplicationExposure(referenceApplication).agentTools).toContainEqual(
        expect.objectContaining({
          agent: 'todo-assistant.chat.agent',
          tool: 'resource_todos_update',
          functionRef: 'resource.todos.update',
          operation: 'todos.update',
          requiresHumanApproval: true,
        }),
      );
    },
    LOADS_ENGINE,
  );

  it('documents how the application is found in --help', async () => {
    const result = await exposure(repositoryRoot, '--help');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`<root>/${APPLICATION_MODULE_FILE}`);
    expect(result.stdout).toContain('"referenceApplication"');
    expect(result.stdout).toContain('--app <path>');
    expect(result.stdout).toContain('--export <name>');
  });
});

describe('wildo exposure on other applications', () => {
  it('prints the same canonical JSON on every run', async () => {
    const run = await bareJsonRun();
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toBe(toCanonicalJson(JSON.parse(run.stdout)));
    // The CLI evaluated the application file; this file built the same application itself: byte for byte the same.
    expect(run.stdout.trimEnd()).toBe(toCanonicalJson(buildApplicationExposure(bareApplication)).trimEnd());
  });

  it('puts in the JSON the report the engine builds, and no values', async () => {
    const { stdout } = await bareJsonRun();
    expect(JSON.parse(stdout)).toEqual(JSON.parse(toCanonicalJson(buildApplicationExposure(bareApplication))));
    expect(stdout).not.toMatch(/"(default|enum|const|examples|description)":/);
  });

  it('takes the first export shaped like an application when there is no referenceApplication', async () => {
    const rootDir = await project(
      "export const zeta = { name: 'zeta', modules: [] };\nexport const alpha = { name: 'alpha', modules: [] };\nexport const notAnApp = 1;\n",
    );
    const result = await exposure(rootDir, '--json');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).application).toBe('alpha');
  });

  it('reports the file and export named by --app and --export', async () => {
    const rootDir = await project();
    await writeFile(
      path.join(rootDir, 'apps.ts'),
      "export const first = { name: 'first', modules: [] };\nexport const second = { name: 'second', modules: [] };\n",
    );
    const result = await exposure(rootDir, '--app', 'apps.ts', '--export', 'second');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('MCP exposure of second');
    expect(result.stdout).toContain('second in apps.ts');
  });

  it('includes the engine modules in an application that has none of its own', async () => {
    const report = JSON.parse((await bareJsonRun()).stdout);
    expect(new Set(report.operations.map((o: { resourceType: string }) => o.resourceType))).toContain(
      'organization-api-keys',
    );
  });

  it('renders unlisted and blocked tools with what their lifecycle means', () => {
    const text = renderExposureReport(
      {
        version: 1,
        application: 'demo',
        catalogues: [{ name: 'default', endpoint: '/mcp' }],
        operations: (['experimental', 'retired'] as const).map((lifecycle, i) => ({
          resourceType: 'notes',
          operation: i === 0 ? 'read' : 'list',
          variant: 'default',
          servicePath: i === 0 ? 'notes.read' : 'notes.list',
          scope: 'ORGANIZATIONS',
          roles: ['ORG_MEMBER'],
          lifecycle,
          tool: i === 0 ? 'notes__read' : 'notes__list',
          status: i === 0 ? 'unlisted' : 'blocked',
          catalogues: ['default'],
          reasons: [],
          sends: [],
          shown: null,
        })),
        moduleTools: [],
        agentTools: [],
        a2aAgents: [],
      },
      { file: 'apps.ts', exportName: 'demo' },
    );
    expect(text).toContain('unlisted (experimental: callable by name, not listed) on default as notes__read');
    expect(text).toContain('blocked (retired: refused by name) on default as notes__list');
    expect(text).toContain('shown  (no output schema; the result is shown as text)');
  });
});

describe('wildo exposure errors', () => {
  it('exits 1 and names the convention when the application file is missing', async () => {
    const rootDir = await project();
    const result = await exposure(rootDir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `No ${APPLICATION_MODULE_FILE} in ${rootDir}; pass the file that exports the application as --app <path>.`,
    );
    expect(result.stdout).toBe('');
  });

  it('exits 1 when --app names a file that does not exist', async () => {
    const rootDir = await project();
    const result = await exposure(rootDir, '--app', 'nowhere.ts');
    expect(result).toMatchObject({ exitCode: 1, stderr: 'No application file at nowhere.ts.\n' });
  });

  it('exits 1 and lists the exports when none is an application', async () => {
    const rootDir = await project("export const settings = { name: 'not an app' };\nexport default 42;\n");
    const result = await exposure(rootDir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      `${APPLICATION_MODULE_FILE} exports no application (its exports: default, settings)`,
    );
  });

  it('exits 1 when --export names a missing export', async () => {
    const rootDir = await project("export const application = { name: 'a', modules: [] };\n");
    const result = await exposure(rootDir, '--export', 'other');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('has no export "other" (its exports: application)');
  });

  it('reports a file that throws while loading without a stack trace', async () => {
    const rootDir = await project(
      "throw new Error('DATABASE_HOST is not set');\nexport const application = { name: 'a', modules: [] };\n",
    );
    const result = await exposure(rootDir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${APPLICATION_MODULE_FILE} could not be loaded: Error: DATABASE_HOST is not set`);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('lists the declaration problems of an invalid application', async () => {
    const rootDir = await project(
      "export const application = { name: 'a', modules: [{ name: 'twice' }, { name: 'twice' }] };\n",
    );
    const result = await exposure(rootDir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('module "twice" › name: two modules share this name; rename one');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('exits 1 outside a project', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wildo-exposure-none-'));
    dirs.push(dir);
    const result = await exposure(dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('No wildo.saas.config.ts found in');
  });
});
