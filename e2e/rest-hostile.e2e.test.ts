import { describe, expect, it } from 'vitest';
import { createSilentLogger, createWildoBackend } from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { runRestHostileScenario } from './rest-hostile.e2e.js';
import { referenceRuntimeOptions } from './reference-runtime.js';

/** A fixed primary secret for this test only (32+ characters, as the engine requires). */
const E2E_TEST_PRIMARY_SECRET = 'e2e-test-primary-secret-0123456789-abcdefghij';

describe('REST hostile scenario', () => {
  it('passes every check against the reference application served over real HTTP', async () => {
    const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    try {
      await using backend = await createWildoBackend({
        application: referenceApplication,
        database,
        logger: createSilentLogger(),
        primarySecret: E2E_TEST_PRIMARY_SECRET,
        ...(await referenceRuntimeOptions()),
      });
      const { url } = await backend.listen(0);
      const lines: string[] = [];
      const results = await runRestHostileScenario(url, (line) => lines.push(line));
      const report = lines.join('\n');

      expect(
        results.failures.map((f) => `${f.label}: ${f.detail ?? ''}`),
        report,
      ).toEqual([]);
      expect(
        results.exchanges.filter((e) => e.status >= 500),
        report,
      ).toEqual([]);
      expect(results.passed).toBeGreaterThan(100);
    } finally {
      await database.close();
    }
  });
});
