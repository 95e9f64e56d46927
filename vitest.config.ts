import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The families of test files that run longest (the packed packages scaffolded, installed and run outside the
 * repository, a browser journey through every page, the MCP conformance suite,
 * the e2e scenarios against a running stack, the browser tests, the CLI's processes), in the order they should start.
 */
const LONG_RUNNING_FIRST = [
  'e2e/scaffold/',
  'e2e/host-ui.',
  'e2e/mcp-conformance/',
  'e2e/',
  'frontend/browser/',
  'backend-api/src/cli/',
  'backend-api/src/main.',
];

/**
 * Starts the long-running families first. Vitest's own order groups files by project name and, on a fresh
 * clone (no timing cache), by file size, which left the conformance suite (~40 s) starting last while the
 * other worker sat idle; starting it first lets the short files fill the other worker around it.
 */
class LongRunningFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const relative = path
        .relative(import.meta.dirname, spec.moduleId)
        .split(path.sep)
        .join('/');
      const index = LONG_RUNNING_FIRST.findIndex((prefix) => relative.startsWith(prefix));
      return index === -1 ? LONG_RUNNING_FIRST.length : index;
    };
    // Array#sort is stable: within a rank, Vitest's order (cached durations when known) is kept.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// One run for the whole workspace; each package keeps its own config (environment, includes, timeouts).
export default defineConfig({
  test: {
    projects: ['shared-lib', 'backend-api', 'create-wildo', 'frontend', 'frontend/vitest.browser.config.ts', 'e2e'],
    // Vitest's default leaves one core idle (available parallelism minus one); on the two-core machines the
    // suite runs on, much of a test's time is spent waiting on child processes, sockets and the database.
    maxWorkers: 2,
    sequence: { sequencer: LongRunningFirstSequencer },
  },
});
