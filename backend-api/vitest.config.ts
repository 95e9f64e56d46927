import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files of one worker share its module graph and its embedded database (a schema per file, see
    // src/testing/test-database.ts): importing the engine and booting PGlite once per worker, not per file.
    isolate: false,
    // Builds the embedded-database template fresh databases start from (see src/testing/pglite-template.ts).
    globalSetup: ['src/testing/pglite-template.setup.ts'],
  },
});
