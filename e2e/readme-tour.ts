import { readFileSync } from 'node:fs';

/** One ```sh block of the README, with the heading it sits under. */
export interface ReadmeShellBlock {
  heading: string;
  /** 1-based line of the opening fence. */
  line: number;
  script: string;
}

/** Where the tour starts (its health check) and the heading of its last section. */
export const TOUR_FIRST_HEADING = '## Run it';
export const TOUR_LAST_HEADING_PREFIX = '### 6.';

/**
 * Commands the tour test leaves out: installing and starting the stack (the test starts it), the test suite,
 * and `wildo` CLI runs through pnpm (each loads the whole application; the CLI has tests of its own).
 */
const SKIPPED_COMMAND = /^(npm|npx|pnpm)\s/;

/**
 * The ```sh blocks from `## Run it` to the end of the `### 6.` section, in order, whatever blocks are added in
 * between. Each is returned as written except the skipped commands (a command continued with `\` is skipped
 * whole).
 */
export function readTourBlocks(readmePath: string): ReadmeShellBlock[] {
  const lines = readFileSync(readmePath, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === TOUR_FIRST_HEADING);
  const last = lines.findIndex((line) => line.startsWith(TOUR_LAST_HEADING_PREFIX));
  if (start < 0 || last < 0)
    throw new Error(
      `README.md has no "${TOUR_FIRST_HEADING}" or "${TOUR_LAST_HEADING_PREFIX}" heading: the tour cannot be found`,
    );
  const afterLast = lines.findIndex((line, i) => i > last && /^#{1,3} /.test(line));
  const end = afterLast < 0 ? lines.length : afterLast;
  const blocks: ReadmeShellBlock[] = [];
  let heading = '';
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line.trim() !== '```sh') continue;
    const close = lines.findIndex((candidate, j) => j > i && candidate.trim() === '```');
    if (close < 0) throw new Error(`README.md line ${i + 1}: a \`\`\`sh block is not closed`);
    const script = withoutSkippedCommands(lines.slice(i + 1, close));
    if (script.trim() !== '') blocks.push({ heading, line: i + 1, script });
    i = close;
  }
  return blocks;
}

/** Drops the skipped commands, keeping every other line (comments included) as written. */
function withoutSkippedCommands(lines: readonly string[]): string {
  const kept: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (!skipping && SKIPPED_COMMAND.test(line.trim())) skipping = true;
    if (!skipping) kept.push(line);
    if (skipping && !line.trimEnd().endsWith('\\')) skipping = false;
  }
  return kept.join('\n');
}

/** Upper-case shell variables the blocks assign (`TOKEN=...`), to carry from one block to the next. */
export function assignedVariables(blocks: readonly ReadmeShellBlock[]): string[] {
  const names = new Set<string>();
  for (const block of blocks)
    for (const match of block.script.matchAll(/^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/gm)) names.add(match[1]!);
  return [...names];
}
