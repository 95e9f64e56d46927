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

const STATELESS_SERVER =
  'the engine serves the handshake revisions statelessly (no session, JSON answers; SSE only for progress of the call itself): it never sends a request of its own to the client';

export const EXPECTED_FAILURES: readonly ExpectedFailure[] = [
  {
    scenario: 'tools-call-with-logging',
    check: 'tools-call-with-logging',
    specVersions: ['2025-06-18', '2025-11-25'],
    reason:
      'the server declares no `logging` capability and does not implement `logging/setLevel` (the suite calls it first and gets -32601), and custom tools have no log channel (their context offers progress only)',
  },
  {
    scenario: 'tools-call-sampling',
    check: 'tools-call-sampling',
    specVersions: ['2025-06-18', '2025-11-25'],
    reason: `no \`test_sampling\` tool: ${STATELESS_SERVER}, so it cannot ask the client for \`sampling/createMessage\` in the middle of a call`,
  },
  {
    scenario: 'tools-call-elicitation',
    check: 'tools-call-elicitation',
    specVersions: ['2025-06-18', '2025-11-25'],
    reason: `no \`test_elicitation\` tool: ${STATELESS_SERVER}, so it cannot send \`elicitation/create\` in the middle of a call`,
  },
];

/** The entry covering a failed check, if any. */
export function expectedFailureFor(scenario: string, specVersion: string, check: string): ExpectedFailure | undefined {
  return EXPECTED_FAILURES.find(
    (entry) =>
      entry.scenario === scenario &&
      entry.check === check &&
      (!entry.specVersions || entry.specVersions.includes(specVersion)),
  );
}
