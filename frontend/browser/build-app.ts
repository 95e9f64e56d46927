import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The frontend package folder. */
export const FRONTEND_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY_ROOT = join(FRONTEND_DIR, '..');
const CACHE_ROOT = join(REPOSITORY_ROOT, 'node_modules', '.cache', 'wildo-tests');
const BUILD_PREFIX = 'frontend-';
/** What the bundle is made of: the frontend's own files and the shared contracts it imports. */
const BUILD_INPUTS = [
  join(FRONTEND_DIR, 'src'),
  join(FRONTEND_DIR, 'index.html'),
  join(FRONTEND_DIR, 'vite.config.ts'),
  join(FRONTEND_DIR, 'package.json'),
  join(REPOSITORY_ROOT, 'shared-lib', 'src'),
];

/**
 * Runs `vite build` for the frontend into `outDir`, in a child process so the bundle is a production
 * build (the test worker's `NODE_ENV=test` would otherwise select React's development build).
 */
export async function buildApp(outDir: string): Promise<void> {
  const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  await promisify(execFile)(
    process.execPath,
    [viteBin, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: FRONTEND_DIR,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}

async function filesUnder(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch(() => null);
  if (entries === null) return [path];
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** A digest of every build input (path and content): a changed source gives a new build. */
async function inputsDigest(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(BUILD_INPUTS.map(filesUnder))).flat().sort();
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

let shared: Promise<string> | undefined;

/**
 * The production build of the current sources, made once and shared by every browser test of a run (and by
 * later runs while the sources are unchanged): a `vite build` costs seconds of CPU each time. Read-only: a test
 * that needs to change the bundle builds its own with {@link buildApp}.
 */
export function sharedAppBuild(): Promise<string> {
  shared ??= (async () => {
    const digest = await inputsDigest();
    const dir = join(CACHE_ROOT, `${BUILD_PREFIX}${digest}`);
    if (existsSync(join(dir, 'index.html'))) return dir;
    const building = `${dir}.building-${process.pid}`;
    await buildApp(building);
    try {
      await rename(building, dir);
    } catch (error) {
      // Another process finished the same build first.
      await rm(building, { recursive: true, force: true });
      if (!existsSync(join(dir, 'index.html'))) throw error;
    }
    // Builds of earlier sources are not needed any more.
    const stale = (await readdir(CACHE_ROOT)).filter(
      (name) => name.startsWith(BUILD_PREFIX) && !name.includes('.building-') && name !== `${BUILD_PREFIX}${digest}`,
    );
    await Promise.all(stale.map((name) => rm(join(CACHE_ROOT, name), { recursive: true, force: true })));
    return dir;
  })();
  return shared;
}
