import { describe, expect, it } from 'vitest';
// Deep relative imports: the package root of @wildo/backend-api (`src/index.ts`) does not exist yet, and the
// PGlite factory and the reference application are not part of the engine's public surface.
import { createSilentLogger, createWildoBackend } from '../backend-api/src/engine/index.js';
import { createPgliteDatabase } from '../backend-api/src/engine/persistence/index.js';
import { referenceApplication } from '../backend-api/src/modules/index.js';
import { runRestHostileScenario } from './rest-hostile.e2e.js';

/** A fixed primary secret for this test only (32+ characters, as the engine requires). */
const E2E_TEST_PRIMARY_SECRET = 'e2e-test-primary-secret-0123456789-abcdefghij';

/**
 * Checks that fail because of an engine bug that is reported and not fixed yet, with the request that
 * shows it. The test insists they still fail, so whoever fixes the bug removes the entry (and the run
 * goes back to "every check passed"); any other failure fails the test.
 */
const KNOWN_ENGINE_BUGS: readonly { label: string; request: RegExp }[] = [
  // The router's URIError (status 400) on a broken percent-encoding reaches the error middleware, which
  // turns every non-FrameworkError into 500 INTERNAL.
  { label: 'H-5 GET with a broken percent-encoding answers a structured 400/404', request: /\/%E0%A4%A$/ },
];

describe('REST hostile scenario', () => {
  it('passes every check against the reference application served over real HTTP', async () => {
    const database = await createPgliteDatabase();
    try {
      await using backend = await createWildoBackend({
        application: referenceApplication,
        database,
        logger: createSilentLogger(),
        primarySecret: E2E_TEST_PRIMARY_SECRET,
      });
      const { url } = await backend.listen(0);
      const lines: string[] = [];
      const results = await runRestHostileScenario(url, (line) => lines.push(line));
      const report = lines.join('\n');

      const isKnownBug = (label: string) => KNOWN_ENGINE_BUGS.some((bug) => bug.label === label);
      // Z-1 (no 5xx in the run) is judged here instead, with the known bugs' requests set aside.
      const unexpected = results.failures.filter((f) => !isKnownBug(f.label) && !f.label.startsWith('Z-1 '));
      expect(unexpected.map((f) => `${f.label}: ${f.detail ?? ''}`), report).toEqual([]);
      const serverErrors = results.exchanges.filter((e) => e.status >= 500 && !KNOWN_ENGINE_BUGS.some((bug) => bug.request.test(e.path)));
      expect(serverErrors, report).toEqual([]);
      const stillFailing = KNOWN_ENGINE_BUGS.filter((bug) => results.failures.some((f) => f.label === bug.label)).map((bug) => bug.label);
      expect(stillFailing, 'a known engine bug now passes: remove it from KNOWN_ENGINE_BUGS').toEqual(KNOWN_ENGINE_BUGS.map((bug) => bug.label));
      expect(results.passed).toBeGreaterThan(100);
    } finally {
      await database.close();
    }
  });
});
