/**
 * Conformance checks that fail against our MCP endpoint on purpose or because of a known gap, each with its
 * reason. The runner fails on any failure not listed here, and on an entry that no longer fails (remove it
 * with the fix), so this list always says exactly what does not pass.
 */
export interface ExpectedFailure {
  scenario: string;
  /** The check id in the scenario's results (`checks.json`). */
  check: string;
  /** Revisions it applies to; omitted = every revision the scenario runs at. */
  specVersions?: readonly string[];
  reason: string;
}

export const EXPECTED_FAILURES: readonly ExpectedFailure[] = [];

/** The entry covering a failed check, if any. */
export function expectedFailureFor(scenario: string, specVersion: string, check: string): ExpectedFailure | undefined {
  return EXPECTED_FAILURES.find(
    (entry) =>
      entry.scenario === scenario &&
      entry.check === check &&
      (!entry.specVersions || entry.specVersions.includes(specVersion)),
  );
}
