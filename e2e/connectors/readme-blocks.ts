import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const README = path.resolve(import.meta.dirname, '../../README.md');
const SECTION = '### 13. Front an existing backend';

/** The ```sh blocks of the README's connectors section, in order. */
export function connectorReadmeBlocks(): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const end = text.indexOf('\n### ', start + SECTION.length);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
}

/** The block of the section whose text contains `marker` (exactly one). */
export function readmeBlock(marker: string): string {
  const blocks = connectorReadmeBlocks().filter((block) => block.includes(marker));
  if (blocks.length !== 1) throw new Error(`expected one README block with "${marker}", found ${blocks.length}`);
  return blocks[0] as string;
}

/** Runs a README block with bash, as written, in the repository root; `set -e` fails it on the first failing line. */
export async function runReadmeBlock(
  script: string,
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}
