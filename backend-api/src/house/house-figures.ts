import path from 'node:path';
import { checkHouse, type HouseRule } from './house-check.js';
import { housePlan } from './house-plan.js';
import { readSourceTree } from './import-graph.js';

/** The engine's folder, which the plan describes. */
export const ENGINE_ROOT = path.resolve(import.meta.dirname, '../engine');

/** Top-level folders of the engine by non-test lines (a room with its nested rooms), the five largest. */
function largestFolders(rooms: readonly { room: string; lines: number }[]): string {
  const folders = new Map<string, number>();
  for (const { room, lines } of rooms)
    folders.set(room.split('/')[0] ?? room, (folders.get(room.split('/')[0] ?? room) ?? 0) + lines);
  return [...folders]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([folder, lines]) => `${folder} ${lines}`)
    .join(', ');
}

/**
 * Prints the house's figures (imports that run up the floors or past an index, circles between rooms and files,
 * the largest rooms) and the broken rules by kind: `pnpm house` (`--all` lists every broken rule, `--root <dir>` measures another
 * copy of the engine).
 */
function main(): void {
  const started = performance.now();
  // `--root <dir>` measures another copy of the engine (an older commit, say) against today's plan.
  const rootAt = process.argv.indexOf('--root');
  const root = rootAt === -1 ? ENGINE_ROOT : path.resolve(process.argv[rootAt + 1] ?? ENGINE_ROOT);
  const report = checkHouse(housePlan(), root, readSourceTree(root));
  const { figures } = report;
  const byRule = new Map<HouseRule, number>();
  for (const violation of report.violations) byRule.set(violation.rule, (byRule.get(violation.rule) ?? 0) + 1);
  const lines = [
    `imports running up the floors:  ${figures.importsUpward}`,
    `imports past a room's index:    ${figures.importsPastIndex}`,
    `circles between rooms:          ${figures.roomCircles.length}${figures.roomCircles.map((c) => `\n  ${c.join(' ⇄ ')}`).join('')}`,
    `circles between files:          ${figures.fileCircles.length}${figures.fileCircles.map((c) => `\n  ${c.join(' ⇄ ')}`).join('')}`,
    `largest rooms (non-test lines): ${figures.roomLines
      .slice(0, 5)
      .map((r) => `${r.room} ${r.lines}`)
      .join(', ')}`,
    `largest folders (non-test):     ${largestFolders(figures.roomLines)}`,
    `broken rules:                   ${[...byRule].map(([rule, count]) => `${rule} ${count}`).join(', ') || 'none'}`,
    `checked in ${Math.round(performance.now() - started)} ms`,
  ];
  console.log(lines.join('\n'));
  if (process.argv.includes('--all'))
    for (const v of report.violations)
      console.log(
        `${v.rule}  ${v.file}${v.line ? `:${v.line}` : ''}${v.specifier ? ` '${v.specifier}'` : ''}  ${v.message}`,
      );
}

main();
