import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RenderedGeneration } from './generation.render.js';

/** How the files on disk compare with a rendered generation (paths relative to the project root, sorted). */
export interface GenerationComparison {
  missing: string[];
  stale: string[];
  upToDate: string[];
}

/** What {@link writeGeneration} did. */
export interface GenerationWriteResult {
  written: string[];
  unchanged: string[];
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Compares each rendered file with the file on disk, byte for byte. Reads only. */
export async function compareGeneration(
  rootDir: string,
  generation: RenderedGeneration,
): Promise<GenerationComparison> {
  const comparison: GenerationComparison = { missing: [], stale: [], upToDate: [] };
  for (const relative of Object.keys(generation.files).sort()) {
    const onDisk = await readIfPresent(path.join(rootDir, relative));
    if (onDisk === undefined) comparison.missing.push(relative);
    else if (onDisk !== generation.files[relative]) comparison.stale.push(relative);
    else comparison.upToDate.push(relative);
  }
  return comparison;
}

/** Writes through a temporary file in the same directory and a rename, so readers never see half a file. */
async function writeAtomically(target: string, content: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, 'utf8');
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes the files that are missing or differ; identical files are left untouched (their mtime
 * does not change). Call it only with a generation rendered from a valid configuration.
 */
export async function writeGeneration(rootDir: string, generation: RenderedGeneration): Promise<GenerationWriteResult> {
  const { missing, stale, upToDate } = await compareGeneration(rootDir, generation);
  const toWrite = [...missing, ...stale].sort();
  for (const relative of toWrite) {
    await writeAtomically(path.join(rootDir, relative), generation.files[relative] ?? '');
  }
  return { written: toWrite, unchanged: upToDate };
}
