import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { exitCodeOf, type CheckRecorder, type CheckSummary } from './check-recorder.js';
import type { HttpClient } from './http-client.js';

/** An error as a scenario line; fetch reports a refused connection as "fetch failed" with the reason in `cause`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}

/**
 * Whether the stack answers `GET /api/v1/health` with 200; when it does not, one failed check says so (an
 * unreachable stack is an unexecuted scenario, never a passed one, and the caller reports nothing else).
 */
export async function stackAnswers(client: HttpClient, recorder: CheckRecorder): Promise<boolean> {
  const health = await client.get('/api/v1/health').catch((error: unknown) => error as Error);
  if (!(health instanceof Error) && health.status === 200) return true;
  recorder.check(
    'stack answers GET /api/v1/health with 200',
    false,
    health instanceof Error ? describeError(health) : `status ${health.status}`,
  );
  return false;
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
