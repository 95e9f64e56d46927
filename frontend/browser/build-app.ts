import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The frontend package folder. */
export const FRONTEND_DIR = fileURLToPath(new URL('..', import.meta.url));

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
