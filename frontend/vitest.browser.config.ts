import { defineConfig } from 'vitest/config';

/** Vitest configuration for the browser smoke tests: Node drives Debian Chromium (playwright-core) against the built app. */
export default defineConfig({
  test: {
    name: 'frontend-browser',
    environment: 'node',
    include: ['browser/**/*.browser.test.ts'],
    testTimeout: 60_000,
    // beforeAll runs `vite build`.
    hookTimeout: 120_000,
  },
});
