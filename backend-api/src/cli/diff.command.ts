import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { toCanonicalJson } from '../engine/config/canonical-json.js';
import {
  diffDeclarations,
  snapshotDeclarations,
  type DeclarationChange,
  type DeclarationDiff,
  type DeclarationSnapshot,
} from '../engine/toolchain/index.js';
import { loadApplication } from './application-loader.js';
import type { CliOutput } from './cli.output.js';
import type { CliStyle } from './cli.style.js';

/** Options of `wildo diff`. */
export interface DiffOptions {
  cwd: string;
  /** The declarations before and after: application files (`--export` picks the export), or saved snapshots (`.json`). */
  before: string;
  after: string;
  exportName?: string;
  json: boolean;
  /** Also write the `after` side's snapshot here (to compare against later without its sources). */
  save?: string;
}

/** Exit codes of `wildo diff`. */
export const DIFF_EXIT = { SAME_OR_SAFE: 0, BREAKING: 1, CANNOT_COMPARE: 2 } as const;

/** A side that could not be read: the comparison is not made. */
class CannotCompare extends Error {}

/** Compares two declaration sets and prints each change with its class, reason and reach. Returns the exit code. */
export async function runDiff(options: DiffOptions, output: CliOutput, style: CliStyle): Promise<number> {
  let before: DeclarationSnapshot;
  let after: DeclarationSnapshot;
  try {
    before = await loadSide(options.before, options);
    after = await loadSide(options.after, options);
    if (options.save) {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path.resolve(options.cwd, options.save), toCanonicalJson(after));
    }
  } catch (error) {
    output.err(`wildo diff cannot compare: ${error instanceof Error ? error.message : String(error)}`);
    return DIFF_EXIT.CANNOT_COMPARE;
  }
  const diff = diffDeclarations(before, after);
  output.out(options.json ? toCanonicalJson(diff) : renderDiff(diff, options, style));
  return diff.counts.breaking > 0 ? DIFF_EXIT.BREAKING : DIFF_EXIT.SAME_OR_SAFE;
}

async function loadSide(file: string, options: DiffOptions): Promise<DeclarationSnapshot> {
  if (file.endsWith('.json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path.resolve(options.cwd, file), 'utf8'));
    } catch (error) {
      throw new CannotCompare(`${file} is not a readable JSON snapshot (${(error as Error).message})`);
    }
    const snapshot = parsed as Partial<DeclarationSnapshot>;
    if (typeof snapshot.application !== 'string' || !Array.isArray(snapshot.capabilities))
      throw new CannotCompare(`${file} is not a declaration snapshot (written by wildo diff --save)`);
    return snapshot as DeclarationSnapshot;
  }
  const loaded = await loadApplication({
    cwd: options.cwd,
    app: file,
    ...(options.exportName ? { exportName: options.exportName } : {}),
  });
  return snapshotDeclarations(loaded.application);
}

function describeChange(change: DeclarationChange): string {
  const what = change.item ? `${change.subject} ${change.item}` : change.subject;
  const values =
    change.before !== undefined && change.after !== undefined
      ? ` (${change.before} -> ${change.after})`
      : change.after !== undefined
        ? ` (${change.after})`
        : change.before !== undefined
          ? ` (was ${change.before})`
          : '';
  return `${what} ${change.change}${values}: ${change.reason}`;
}

function renderDiff(diff: DeclarationDiff, options: DiffOptions, style: CliStyle): string {
  const lines = [`Declarations of ${options.before} -> ${options.after}`];
  const mark = {
    breaking: style.red('BREAKING  '),
    notable: style.yellow('NOTABLE   '),
    compatible: style.green('COMPATIBLE'),
  };
  if (diff.changes.length === 0) lines.push('  no changes');
  for (const change of diff.changes) {
    lines.push(`  ${mark[change.class]}  ${style.bold(change.capability)}  ${describeChange(change)}`);
    if (change.reaches.length > 0) lines.push(style.dim(`              reaches ${change.reaches.join('; ')}`));
  }
  const { breaking, notable, compatible } = diff.counts;
  lines.push('', `${breaking} breaking, ${notable} notable, ${compatible} compatible`);
  return `${lines.join('\n')}\n`;
}
