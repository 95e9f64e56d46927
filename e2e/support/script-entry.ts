import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { exitCodeOf, type CheckSummary } from './check-recorder.js';

/** An error as a scenario line; fetch reports a refused connection as "fetch failed" with the reason in `cause`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}

/**
 * Runs a scenario when its module is the script node was started with (`tsx e2e/<name>.e2e.ts`), not when a test
 * imports it: against `BASE_URL` (default `defaultBaseUrl`), printing each line, with the exit code of its checks.
 */
export async function runAsScript(
  moduleUrl: string,
  defaultBaseUrl: string,
  run: (baseUrl: string, print: (line: string) => void) => Promise<Pick<CheckSummary, 'passed' | 'failed'>>,
): Promise<void> {
  const invokedPath = process.argv[1];
  if (!invokedPath || moduleUrl !== pathToFileURL(realpathSync(invokedPath)).href) return;
  const results = await run(process.env['BASE_URL'] ?? defaultBaseUrl, (line) => process.stdout.write(`${line}\n`));
  // exitCode rather than exit(): stdout is flushed before the process ends.
  process.exitCode = exitCodeOf(results);
}
