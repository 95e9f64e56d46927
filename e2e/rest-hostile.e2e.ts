/**
 * The REST hostile scenario: an external probe against a running Wildo stack over real HTTP.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/rest-hostile.e2e.ts
 *
 * It provisions disposable users and organizations through the public API, so point it at a
 * disposable deployment only. Exit code 0 when every check passed, 1 otherwise.
 */
import { authenticationSection } from './rest-hostile/authentication.section.js';
import { hostileIdsSection } from './rest-hostile/hostile-ids.section.js';
import { hostileInputSection } from './rest-hostile/hostile-input.section.js';
import { rolesAndMembershipSection } from './rest-hostile/roles-and-membership.section.js';
import type { ScenarioSection } from './rest-hostile/scenario-context.js';
import { tenantIsolationSection } from './rest-hostile/tenant-isolation.section.js';
import { createCheckRecorder, type CheckResult, type CheckSummary, type LogLine } from './support/check-recorder.js';
import { createHttpClient, type ExchangeRecord } from './support/http-client.js';
import { describeError, runAsScript, stackAnswers } from './support/script-entry.js';

/** The stack the script probes when `BASE_URL` is not set (the reference application's default port). */
export const DEFAULT_BASE_URL = 'http://localhost:4241';

/** The sections, in the order they run; each provisions its own tenants. */
export const REST_HOSTILE_SECTIONS: readonly ScenarioSection[] = [
  tenantIsolationSection,
  rolesAndMembershipSection,
  hostileInputSection,
  authenticationSection,
  hostileIdsSection,
];

/** What a run proved: every check, the totals and every response status it saw. */
export interface RestHostileResults extends CheckSummary {
  baseUrl: string;
  checks: CheckResult[];
  /** Every response of the run (method, path, status), fixtures included. */
  exchanges: ExchangeRecord[];
}

/**
 * Runs the REST hostile scenario against `baseUrl` and returns its results; it never throws for a failed
 * check or an unreachable stack (both are recorded as failures).
 *
 * @example
 * const results = await runRestHostileScenario('http://127.0.0.1:4241', console.log);
 * if (results.failed > 0) process.exitCode = 1;
 */
export async function runRestHostileScenario(baseUrl: string, log: LogLine): Promise<RestHostileResults> {
  const client = createHttpClient(baseUrl);
  const recorder = createCheckRecorder(log);
  log(`REST hostile scenario against ${client.baseUrl}`);

  if (await stackAnswers(client, recorder)) {
    for (const section of REST_HOSTILE_SECTIONS) {
      recorder.section(section.title);
      try {
        await section.run({ client, recorder });
      } catch (error) {
        // A failed fixture or a dropped connection ends the section; its remaining checks did not run.
        recorder.check(`${section.title}: section completed`, false, describeError(error));
      }
    }
    recorder.section('Z: every response of the run');
    const serverErrors = client.exchanges.filter((e) => e.status >= 500);
    recorder.check(
      `Z-1 no response was a 5xx (${client.exchanges.length} responses)`,
      serverErrors.length === 0,
      serverErrors.map((e) => `${e.method} ${e.path} -> ${e.status}`).join('; '),
    );
  }
  const summary = recorder.summarize();
  return { ...summary, baseUrl: client.baseUrl, checks: [...recorder.results], exchanges: [...client.exchanges] };
}

await runAsScript(import.meta.url, DEFAULT_BASE_URL, runRestHostileScenario);
