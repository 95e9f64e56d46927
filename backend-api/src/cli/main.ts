import { processOutput } from './cli.output.js';
import { terminalColors, terminalPrompt } from './cli.style.js';
import { runWildoCli } from './wildo.cli.js';

/** The process entry of `wildo` (see bin/wildo.mjs): runs the CLI, writing its output as it comes; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const result = await runWildoCli(argv, {
    cwd: process.cwd(),
    forward: processOutput,
    colors: terminalColors(),
    ...(process.stdin.isTTY ? { prompt: terminalPrompt } : {}),
  });
  return result.exitCode;
}
