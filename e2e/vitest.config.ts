import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    // One test runs the whole scenario over HTTP (a few hundred requests, argon2 sign-ups, a 2 MB body).
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // The scenarios import the same engine: one module graph per worker, not one per file.
    isolate: false,
    // Builds the embedded-database template fresh databases start from (see src/testing/pglite-template.ts).
    globalSetup: ['../backend-api/src/testing/pglite-template.setup.ts'],
  },
});
