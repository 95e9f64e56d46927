import { defineConfig } from 'vitest/config';

// One run for the whole workspace; each package keeps its own config (environment, includes, timeouts).
export default defineConfig({
  test: {
    projects: ['shared-lib', 'backend-api', 'frontend', 'frontend/vitest.browser.config.ts', 'e2e'],
    // Vitest's default leaves one core idle (available parallelism minus one); on the two-core machines the
    // suite runs on, much of a test's time is spent waiting on child processes, sockets and the database.
    maxWorkers: 2,
  },
});
