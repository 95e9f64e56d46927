import { describe, expect, it, vi } from 'vitest';
import { createLogger, createWildoBackend, SAAS_SERVICE_TYPES, type ServicesRegistryHandler } from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { runMcpHostileScenario } from './mcp-hostile.e2e.js';
import { IN_PROCESS_TOOLS, inProcessProbesModule } from './mcp-hostile/in-process-probes.js';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { referenceRuntimeOptions } from './reference-runtime.js';

/** A fixed primary secret for this test only (32+ characters, as the engine requires). */
const E2E_TEST_PRIMARY_SECRET = 'e2e-mcp-hostile-secret-0123456789-abcdefghij';
/** A smaller burst window than the default 600 / 10 s, so the burst probe stays short; no other caller comes near it. */
const BURST = { points: 200, durationMs: 10_000 };

describe('MCP hostile scenario', () => {
  it('passes every check against the reference application (plus retired and user-scoped probe tools) over real HTTP, with no refusal reaching the service layer', async () => {
    const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    const errorLog: string[] = [];
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      await using backend = await createWildoBackend({
        application: { ...referenceApplication, modules: [...referenceApplication.modules, inProcessProbesModule] },
        database,
        logger: createLogger({ level: 'error', destination: { write: (line: string) => void errorLog.push(line) } }),
        primarySecret: E2E_TEST_PRIMARY_SECRET,
        publicUrl: url,
        http: { burst: BURST },
        ...(await referenceRuntimeOptions()),
      });
      await backend.listen(port, '127.0.0.1');
      // The spy: every call that reaches a resource service goes through one of these two methods.
      const services = backend.container.get<ServicesRegistryHandler>(SAAS_SERVICE_TYPES.ServicesRegistryHandler);
      const core = vi.spyOn(services, 'executeCoreOperation');
      const custom = vi.spyOn(services, 'executeCustomOperation');
      const serviceCalls = { count: () => core.mock.calls.length + custom.mock.calls.length };

      const lines: string[] = [];
      const results = await runMcpHostileScenario(url, (line) => lines.push(line), {
        serviceCalls,
        inProcessTools: IN_PROCESS_TOOLS,
        burstPoints: BURST.points,
      });
      const report = lines.join('\n');
      console.info(
        `MCP hostile (in-process): ${results.passed} passed, ${results.failed} failed; ${results.spiedRefusals} refusals checked against the service spy`,
      );

      expect(
        results.failures.map((f) => `${f.label}: ${f.detail ?? ''}`),
        report,
      ).toEqual([]);
      expect(
        results.exchanges.filter((e) => e.status >= 500),
        report,
      ).toEqual([]);
      // The spy did see the scenario's successful calls, and each refusal was checked against it.
      expect(serviceCalls.count(), report).toBeGreaterThan(100);
      expect(results.spiedRefusals, report).toBeGreaterThan(50);
      for (const reason of [
        'input_invalid',
        'role_refused',
        'rate_limit_exceeded',
        'principal_not_allowed',
        'lifecycle_blocked',
      ]) {
        expect(
          results.checks.some((check) => check.passed && check.label.includes(reason)),
          `${reason}\n${report}`,
        ).toBe(true);
      }
      expect(results.passed).toBeGreaterThan(120);
      expect(errorLog, report).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
