import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

// Initializing an embedded cluster (initdb in WASM) costs seconds, and the suite needs a fresh one in many
// places: each test worker's shared database, tests that open their own, and spawned backends. The first use
// initializes one template per PGlite version and keeps it under node_modules/.cache; every later fresh
// database starts from it (a dump for in-memory databases, a directory copy for on-disk ones).

// The pinned versions (this package's manifest) name the template: an upgrade builds a new one.
const MANIFEST = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const PGLITE_VERSION = `${MANIFEST.dependencies['@electric-sql/pglite']}-vector-${MANIFEST.dependencies['@electric-sql/pglite-pgvector']}`;
const CACHE_ROOT = path.resolve(import.meta.dirname, '../../../node_modules/.cache/wildo-tests');

/** Where the template of this PGlite version lives: `<dir>/pglite` (a data directory) and `<dir>/pglite.tar`. */
export const PGLITE_TEMPLATE_DIR = path.join(CACHE_ROOT, `pglite-${PGLITE_VERSION}`);
const TEMPLATE_DATA = path.join(PGLITE_TEMPLATE_DIR, 'pglite');
const TEMPLATE_DUMP = path.join(PGLITE_TEMPLATE_DIR, 'pglite.tar');

let ensuring: Promise<void> | undefined;

/** Creates the template once (atomically: built beside, then renamed into place); later calls return at once. */
export function ensurePgliteTemplate(): Promise<void> {
  ensuring ??= existsSync(TEMPLATE_DUMP) ? Promise.resolve() : buildTemplate();
  return ensuring;
}

async function buildTemplate(): Promise<void> {
  const building = `${PGLITE_TEMPLATE_DIR}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  const pglite = await PGlite.create({ dataDir: path.join(building, 'pglite'), extensions: { vector } });
  await pglite.exec('CREATE EXTENSION IF NOT EXISTS vector');
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  await writeFile(path.join(building, 'pglite.tar'), Buffer.from(await dump.arrayBuffer()));
  try {
    await rename(building, PGLITE_TEMPLATE_DIR);
  } catch (error) {
    // Another process finished first: its template is as good as ours.
    await rm(building, { recursive: true, force: true });
    if (!existsSync(TEMPLATE_DUMP)) throw error;
  }
}

/** The template as a dump, for `createPgliteDatabase({ loadDataDir })` (in memory or in a new directory). */
export async function pgliteTemplateDump(): Promise<Blob> {
  await ensurePgliteTemplate();
  return new Blob([await readFile(TEMPLATE_DUMP)]);
}

/**
 * Prepares `<dataDir>/pglite` (the layout a backend started with `WILDO_DATA_DIR=<dataDir>` uses) as a copy of
 * the template, so the backend opens an initialized cluster instead of creating one.
 */
export async function seedDataDirectory(dataDir: string): Promise<void> {
  await ensurePgliteTemplate();
  await cp(TEMPLATE_DATA, path.join(dataDir, 'pglite'), { recursive: true });
}
