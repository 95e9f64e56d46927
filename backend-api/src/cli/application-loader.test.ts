import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModuleImporter } from '../engine/config/module-import.js';
import { ApplicationLoadError, importApplicationFile } from './application-loader.js';

// TypeScript-only syntax, so that a loader which does not transpile cannot evaluate it.
const TYPED_APPLICATION =
  "export const application: { name: string; modules: never[] } = { name: 'typed', modules: [] };\n";
const LOADS = '__wildoApplicationLoaderTestLoads';

/** A host without a TypeScript loader, as plain Node 20 answers `import()` of a `.ts` file. */
const noTypeScriptHost: ModuleImporter = () =>
  Promise.reject(Object.assign(new TypeError('Unknown file extension ".ts"'), { code: 'ERR_UNKNOWN_FILE_EXTENSION' }));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wildo-app-loader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  Reflect.deleteProperty(globalThis, LOADS);
});

async function file(name: string, text: string): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, text);
  return target;
}

describe('importApplicationFile', () => {
  it("loads a TypeScript application with the host's loader", async () => {
    const target = await file('host.ts', TYPED_APPLICATION);
    expect(await importApplicationFile(target, 'host.ts', dir)).toMatchObject({ application: { name: 'typed' } });
  });

  it('falls back to jiti where the host cannot load TypeScript', async () => {
    const target = await file('fallback.ts', TYPED_APPLICATION);
    const loaded = await importApplicationFile(target, 'fallback.ts', dir, noTypeScriptHost);
    expect(loaded).toMatchObject({ application: { name: 'typed' } });
  });

  it('falls back to jiti where the host leaves the TypeScript untransformed (a file outside an ES-module package)', async () => {
    const target = await file('untransformed.ts', TYPED_APPLICATION);
    // What Node's CommonJS loader says about `: {` type annotations that tsx's ESM hooks did not strip.
    const untransformed: ModuleImporter = () => Promise.reject(new SyntaxError("Unexpected token ':'"));
    const loaded = await importApplicationFile(target, 'untransformed.ts', dir, untransformed);
    expect(loaded).toMatchObject({ application: { name: 'typed' } });
  });

  it('reports a file that throws after evaluating it once, never again through jiti', async () => {
    const target = await file(
      'throws.ts',
      `(globalThis as Record<string, number>).${LOADS} = ((globalThis as Record<string, number>).${LOADS} ?? 0) + 1;\nthrow new Error('DATABASE_HOST is not set');\n`,
    );
    const failure = importApplicationFile(target, 'throws.ts', dir);
    await expect(failure).rejects.toThrow(ApplicationLoadError);
    await expect(failure).rejects.toThrow('throws.ts could not be loaded: Error: DATABASE_HOST is not set');
    expect(Reflect.get(globalThis, LOADS)).toBe(1);
  });
});
