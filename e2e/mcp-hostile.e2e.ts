/**
 * The MCP hostile scenario: an external probe of a running Wildo stack's MCP endpoints over real HTTP.
 *
 *   BASE_URL=http://localhost:4241 npx tsx e2e/mcp-hostile.e2e.ts
 *
 * It provisions disposable users, organizations, API keys and OAuth clients through the public API (four
 * sign-ups), so point it at a disposable deployment only. Exit code 0 when every check passed, 1 otherwise.
 */
import { authenticationSection } from './mcp-hostile/authentication.section.js';
import { headerMismatchSection } from './mcp-hostile/header-mismatch.section.js';
import { instancesSection } from './mcp-hostile/instances.section.js';
import { rateLimitsSection } from './mcp-hostile/rate-limits.section.js';
import { refusalReasonsSection } from './mcp-hostile/refusal-reasons.section.js';
import type { McpHostileOptions, McpScenarioContext, McpScenarioSection } from './mcp-hostile/scenario-context.js';
import { tenantIsolationSection } from './mcp-hostile/tenant-isolation.section.js';
import { provisionWorld } from './mcp-hostile/world.js';
import { createCheckRecorder, type CheckResult, type CheckSummary, type LogLine } from './support/check-recorder.js';
import { createHttpClient, type ExchangeRecord } from './support/http-client.js';
import { describeError, runAsScript, stackAnswers } from './support/script-entry.js';

/** The stack the script probes when `BASE_URL` is not set (the reference application's default port). */
export const DEFAULT_BASE_URL = 'http://localhost:4241';

/** The sections, in the order they run; rate limits last (the burst probe blocks its organization for a window). */
export const MCP_HOSTILE_SECTIONS: readonly McpScenarioSection[] = [
  authenticationSection,
  tenantIsolationSection,
  instancesSection,
  headerMismatchSection,
  refusalReasonsSection,
  rateLimitsSection,
];

/** What a run proved: every check, the totals, every response status and the refusals checked against the service spy. */
export interface McpHostileResults extends CheckSummary {
  baseUrl: string;
  checks: CheckResult[];
  exchanges: ExchangeRecord[];
  /** Refused calls whose service-layer count was checked (in-process runs only). */
  spiedRefusals: number;
}

/**
 * Runs the MCP hostile scenario against `baseUrl`; it never throws for a failed check or an unreachable stack
 * (both are recorded as failures). In-process callers pass a service-call counter (a spy on the container's
 * ServicesRegistryHandler) and the tools the reference application does not declare.
 *
 * @example
 * const results = await runMcpHostileScenario('http://127.0.0.1:4241', console.log);
 * if (results.failed > 0) process.exitCode = 1;
 */
export async function runMcpHostileScenario(
  baseUrl: string,
  log: LogLine,
  options: McpHostileOptions = {},
): Promise<McpHostileResults> {
  const client = createHttpClient(baseUrl);
  const recorder = createCheckRecorder(log);
  let spiedRefusals = 0;
  log(`MCP hostile scenario against ${client.baseUrl}${options.serviceCalls ? ' (service calls spied)' : ''}`);

  if (await stackAnswers(client, recorder)) {
    recorder.section('setup: tenants, API keys and delegated tokens through the public API');
    const world = await provisionWorld(client).catch((error: unknown) => error as Error);
    if (world instanceof Error) {
      recorder.check('setup: tenants, API keys and delegated tokens provisioned', false, describeError(world));
    } else {
      recorder.check(
        'setup: tenants, API keys and delegated tokens provisioned (OAuth consent + token endpoint)',
        true,
      );
      const context: McpScenarioContext = {
        client,
        recorder,
        world,
        options,
        note: log,
        async refused(label, action) {
          const counter = options.serviceCalls;
          if (!counter) return action();
          const before = counter.count();
          const result = await action();
          spiedRefusals += 1;
          const calls = counter.count() - before;
          recorder.check(`${label}: no call reached the service layer`, calls === 0, `${calls} service call(s)`);
          return result;
        },
      };
      for (const section of MCP_HOSTILE_SECTIONS) {
        recorder.section(section.title);
        try {
          await section.run(context);
        } catch (error) {
          recorder.check(`${section.title}: section completed`, false, describeError(error));
        }
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
  return {
    ...summary,
    baseUrl: client.baseUrl,
    checks: [...recorder.results],
    exchanges: [...client.exchanges],
    spiedRefusals,
  };
}

await runAsScript(import.meta.url, DEFAULT_BASE_URL, runMcpHostileScenario);
