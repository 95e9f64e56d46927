import { defineConfig } from 'vitest/config';

// One run for the whole workspace; each package keeps its own config (environment, includes, timeouts).
export default defineConfig({
  test: {
    projects: ['shared-lib', 'backend-api', 'frontend', 'frontend/vitest.browser.config.ts', 'e2e'],
  },
});
