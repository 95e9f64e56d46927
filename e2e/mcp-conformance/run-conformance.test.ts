import { describe, expect, it } from 'vitest';
import { EXPECTED_FAILURES } from './expected-failures.js';
import { runMcpConformance } from './run-conformance.js';

/**
 * CI runs the MCP conformance suite (Node 22 from the npm package `node`) against the engine's endpoint, like
 * `pnpm conformance:mcp` does: one suite process per revision plus one per planned scenario outside the active
 * suites (seven processes, about 10 s on two idle cores).
 */
describe('MCP conformance suite', () => {
  it('passes every server scenario run for tools, header validation, the stateless revision and DNS rebinding, but the listed expected failures', async () => {
    const lines: string[] = [];
    const report = await runMcpConformance({ log: (line) => lines.push(line), verbose: true });
    const text = lines.join('\n');
    expect(
      report.outcomes.flatMap((o) =>
        o.unexpected.map((c) => `${o.specVersion} ${o.scenario} ${c.id}: ${c.errorMessage ?? ''}`),
      ),
      text,
    ).toEqual([]);
    expect(
      report.staleExpectations.map((e) => `${e.scenario} ${e.check}`),
      text,
    ).toEqual([]);
    expect(
      report.outcomes.filter((o) => o.runError),
      text,
    ).toEqual([]);
    expect(report.passed, text).toBeGreaterThan(100);
    // Every listed expected failure carries a reason.
    for (const entry of EXPECTED_FAILURES) expect(entry.reason.length).toBeGreaterThan(20);
  }, 360_000);
});
