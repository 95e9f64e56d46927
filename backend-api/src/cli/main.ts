import { runWildoCli } from './wildo.cli.js';

/** The process entry of `wildo` (see bin/wildo.mjs): runs the CLI and writes its output; returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const result = await runWildoCli(argv, { cwd: process.cwd() });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}
