import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { postTurn, signUpThroughOutbox, startStubModels, type StubModels } from '@wildo/backend-api/testing';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applicationEnvironment,
  NODE_22_BIN,
  PACKED_PACKAGES,
  PNPM,
  readmeCommands,
  REPO_ROOT,
  runCommand,
  startApplication,
  type CommandRun,
} from './scaffold-harness.js';
import { findGuide, guideImportFiles, GUIDE_PACKAGE_MAPPING } from './guide-imports.js';

// The README's "Start your own application", run as a newcomer would, outside this repository: the workspace's
// packages are built and packed (`pnpm pack`), the scaffolder writes an application that installs them from the
// tarballs, its test command passes and its run command serves the module's resource over REST and MCP and its
// assistant against a stand-in model. Once with npm (its tests and its server under Node 22), once with pnpm.

const seconds: Record<string, number> = {};
let tmp: string;
let packs: string;
let models: StubModels;

/** Fails with the command's output when it did not succeed. */
function expectSuccess(run: CommandRun): void {
  expect(run.code, `${run.command}\n${run.output}`).toBe(0);
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'wildo-start-your-own-'));
  packs = path.join(tmp, 'packs');
  await mkdir(packs);
  const filters = PACKED_PACKAGES.flatMap((dir) => ['--filter', `./${dir}`]);
  const build = await runCommand([...PNPM, ...filters, 'run', 'build'], { cwd: REPO_ROOT });
  expectSuccess(build);
  seconds.build = build.seconds;
  for (const dir of PACKED_PACKAGES) {
    const pack = await runCommand([...PNPM, 'pack', '--pack-destination', packs], { cwd: path.join(REPO_ROOT, dir) });
    expectSuccess(pack);
    seconds.pack = (seconds.pack ?? 0) + pack.seconds;
  }
  models = await startStubModels();
}, 300_000);

describe('the packed packages', () => {
  it('ship ESM with declarations: exports with types and import, files, a version, sideEffects, engines', async () => {
    for (const tarball of (await readdir(packs)).sort()) {
      const read = await runCommand(['tar', '-xzOf', path.join(packs, tarball), 'package/package.json'], {
        cwd: packs,
      });
      const manifest = JSON.parse(read.output) as Record<string, any>;
      expect(manifest.version, tarball).toMatch(/^\d+\.\d+\.\d+$/);
      expect(manifest, tarball).toMatchObject({
        type: 'module',
        engines: { node: '>=20.19' },
        files: expect.any(Array),
      });
      expect(manifest.sideEffects, tarball).toBeDefined();
      expect(manifest.private, tarball).toBeUndefined();
      for (const [entry, conditions] of Object.entries(manifest.exports as Record<string, any>))
        expect(conditions, `${tarball} ${entry}`).toEqual({
          types: expect.stringMatching(/\.d\.ts$/),
          import: expect.stringMatching(/\.js$/),
        });
      expect(JSON.stringify(manifest.dependencies ?? {}), tarball).not.toContain('workspace:');
    }
  });
});

afterAll(async () => {
  await models?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  console.log(`start-your-own seconds: ${JSON.stringify(seconds)}`);
});

/** The README's command with the package sources of this run: the tarballs instead of the registry. */
function localCommand(line: string, createWildo: string): string[] {
  const words = line.split(/\s+/);
  if (line.startsWith('npm create wildo'))
    return [
      'npm',
      'exec',
      '--yes',
      `--package=${createWildo}`,
      '--',
      'create-wildo',
      ...words.slice(3),
      '--from',
      packs,
    ];
  if (line.startsWith('pnpm create wildo'))
    return [...PNPM, `--package=${createWildo}`, 'dlx', 'create-wildo', ...words.slice(3), '--from', packs];
  if (line === 'npm install') return ['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund'];
  if (words[0] === 'pnpm') return [...PNPM, ...words.slice(1), ...(words[1] === 'install' ? ['--prefer-offline'] : [])];
  return words;
}

/** Follows the README for one package manager: scaffold, install, test; returns the run command and the app's folder. */
async function followReadme(
  manager: 'npm' | 'pnpm',
  env: NodeJS.ProcessEnv,
): Promise<{ start: string[]; dir: string }> {
  const createWildo = path.join(packs, 'create-wildo-0.1.0.tgz');
  let cwd = path.join(tmp, manager);
  await mkdir(cwd);
  let start: string[] | undefined;
  for (const line of readmeCommands()[manager]) {
    if (line.startsWith('cd ')) {
      cwd = path.join(cwd, line.slice(3));
      continue;
    }
    const argv = localCommand(line, createWildo);
    if (line.endsWith(' start')) {
      start = argv;
      continue;
    }
    const run = await runCommand(argv, { cwd, env });
    expectSuccess(run);
    seconds[`${manager} ${line.split(' ').slice(0, 2).join(' ')}`] = run.seconds;
  }
  if (!start) throw new Error(`README: no run command for ${manager}`);
  return { start, dir: cwd };
}

/** Signs up, then reaches the module's resource over REST and MCP and its assistant (the stand-in model). */
async function exerciseRunningApplication(url: string): Promise<void> {
  const api = `${url}/api/v1`;
  const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });
  const post = (path: string, body: unknown, authorization?: string) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(body),
    }).then(json);
  const { accessToken } = await signUpThroughOutbox(api, { email: 'grace@example.com', password: 'a long passphrase' });
  const bearer = `Bearer ${accessToken}`;
  const org = (await post('/organizations', { name: 'Harvard Mark I' }, bearer)).body.data._id as string;
  const tickets = `/organizations/${org}/tickets`;

  const created = await post(tickets, { title: 'Moth in relay 70' }, bearer);
  expect(created.status).toBe(201);
  const id = created.body.data._id as string;
  const listed = await json(await fetch(`${api}${tickets}?status=open`, { headers: { authorization: bearer } }));
  expect(listed.body.data.map((t: { _id: string }) => t._id)).toEqual([id]);
  expect(
    (await post(`${tickets}/${id}/close`, { resolution: 'Taped in the log book' }, bearer)).body.data,
  ).toMatchObject({
    status: 'closed',
  });

  const key = await post(`/organizations/${org}/api-keys`, { name: 'MCP client', roles: ['ORG_MEMBER'] }, bearer);
  expect(key.status).toBe(201);
  const mcp = (body: unknown) =>
    fetch(`${api}/mcp`, {
      method: 'POST',
      headers: {
        authorization: key.body.data.plainKey as string,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(body),
    }).then(json);
  const tools = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  expect(tools.body.result.tools.map((t: { name: string }) => t.name)).toEqual(
    expect.arrayContaining(['tickets__create', 'tickets__list', 'tickets__read']),
  );
  const call = await mcp({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'tickets__list', arguments: {} },
  });
  expect(call.body.result.isError ?? false).toBe(false);
  expect(JSON.stringify(call.body.result.structuredContent)).toContain(id);

  const turn = await postTurn(`${api}/organizations/${org}/flows-actors/systems/tickets-desk/turns`, {
    token: accessToken,
    message: `call resource_tickets_read {"id":"${id}"}`,
  });
  expect(turn.events.map((event) => event.type)).toEqual(expect.arrayContaining(['tool_call', 'tool_result']));
  expect(JSON.stringify(turn.events)).toContain('Taped in the log book');
}

describe("the README's Start your own application", () => {
  it('with npm: scaffolds, installs from the packed tarballs, passes its tests and serves under Node 22', async () => {
    const node22 = applicationEnvironment({ PATH: `${NODE_22_BIN}${path.delimiter}${process.env.PATH ?? ''}` });
    const { start, dir } = await followReadme('npm', node22);
    const app = await startApplication(start, {
      cwd: dir,
      env: { ...node22, ...models.env, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    try {
      const started = performance.now();
      await exerciseRunningApplication(app.url);
      seconds['npm probes'] = (performance.now() - started) / 1000;
    } finally {
      await app.stop();
    }
  }, 600_000);

  it('with pnpm: the same under Node 20', async () => {
    const { start, dir } = await followReadme('pnpm', applicationEnvironment());
    const app = await startApplication(start, {
      cwd: dir,
      env: applicationEnvironment({
        ...models.env,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      }),
    });
    try {
      await exerciseRunningApplication(app.url);
    } finally {
      await app.stop();
    }
  }, 600_000);
});

// The guide lives outside the repository (in `shared/` beside the clone); a clone without it has nothing to check.
describe.runIf(findGuide() !== undefined)("the guide's code", () => {
  it("type-checks against the built packages, installed under the guide's names as a consumer maps them", async () => {
    const dir = path.join(tmp, 'guide');
    await mkdir(path.join(dir, 'src'), { recursive: true });
    const tarball = (pkg: string) => `file:${path.join(packs, `${pkg.replace('@', '').replace('/', '-')}-0.1.0.tgz`)}`;
    const frontend = JSON.parse(await readFile(path.join(REPO_ROOT, 'frontend/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const manifest = {
      name: 'guide-fixture',
      private: true,
      type: 'module',
      dependencies: {
        ...Object.fromEntries(Object.entries(GUIDE_PACKAGE_MAPPING).map(([alias, pkg]) => [alias, tarball(pkg)])),
        '@wildo/backend-api': tarball('@wildo/backend-api'),
        '@wildo/shared-lib': tarball('@wildo/shared-lib'),
        inversify: '8.2.3',
        zod: frontend.dependencies.zod,
        react: frontend.dependencies.react,
      },
      devDependencies: {
        // npm's current TypeScript (the native compiler); the scaffolded applications check with the workspace's 5.9.
        typescript: '7.0.2',
        '@types/node': '20.19.43',
        '@types/react': frontend.devDependencies['@types/react'],
      },
    };
    await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    const overrides = ['@wildo/backend-api', '@wildo/shared-lib', '@wildo/frontend', 'create-wildo'].map(
      (pkg) => `  '${pkg}': '${tarball(pkg)}'`,
    );
    await writeFile(
      path.join(dir, 'pnpm-workspace.yaml'),
      `allowBuilds:\n  '@google/genai': false\n  esbuild: true\n  protobufjs: false\noverrides:\n${overrides.join('\n')}\n`,
    );
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023', 'DOM'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          jsx: 'react-jsx',
          strict: true,
          experimentalDecorators: true,
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    // The guide's examples kept in the repository (compiled there against the sources), and every import of the guide.
    const examples = path.join(REPO_ROOT, 'backend-api/src/modules/guide-compatibility');
    for (const file of (await readdir(examples)).filter((name) => name.endsWith('.guide.ts')))
      await copyFile(path.join(examples, file), path.join(dir, 'src', file));
    await copyFile(
      path.join(REPO_ROOT, 'frontend/src/saas-frontend-lib/flows-actors.guide.tsx'),
      path.join(dir, 'src/flows-actors.guide.tsx'),
    );
    for (const [file, text] of Object.entries(guideImportFiles())) await writeFile(path.join(dir, 'src', file), text);
    expectSuccess(await runCommand([...PNPM, 'install', '--prefer-offline'], { cwd: dir }));
    const compiled = await runCommand(['node', path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: dir,
    });
    seconds['guide tsc'] = compiled.seconds;
    expectSuccess(compiled);
  }, 300_000);
});
