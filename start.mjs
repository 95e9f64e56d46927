#!/usr/bin/env node
// `npm start`: installs what is missing, builds the web app only when its sources changed since the last build, then
// runs the backend in the foreground. Ctrl-C stops it quietly (the backend drains; no package-manager error follows).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PNPM = ['-y', 'pnpm@12.4.2'];
const root = import.meta.dirname;

function run(args) {
  const result = spawnSync('npx', [...PNPM, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The newest modification time under `path` (files and folders, `node_modules` and `dist` skipped). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'dist-lib') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

// Installed already and the lockfile unchanged since: nothing to install (pnpm would take seconds to find that out).
const installed = join(root, 'node_modules', '.modules.yaml');
if (!existsSync(installed) || newest(join(root, 'pnpm-lock.yaml')) > statSync(installed).mtimeMs)
  run(['install', '--frozen-lockfile']);

const built = join(root, 'frontend', 'dist', 'index.html');
const inputs = [
  'frontend/src',
  'frontend/index.html',
  'frontend/vite.config.ts',
  'frontend/package.json',
  'shared-lib/src',
  'pnpm-lock.yaml',
];
const sourcesChanged =
  !existsSync(built) || inputs.some((input) => newest(join(root, input)) > statSync(built).mtimeMs);
if (sourcesChanged) run(['--filter', '@wildo/frontend', 'build:app']);
else console.log('Web app unchanged since its last build: not rebuilding.');

// The backend itself, without a package manager in between: its exit code is ours, and a signal reaches it directly.
const backend = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['src/main.ts'], {
  cwd: join(root, 'backend-api'),
  stdio: 'inherit',
});
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    backend.kill(signal);
  });
}
backend.on('exit', (code, signal) => process.exit(stopping || signal ? 0 : (code ?? 0)));
