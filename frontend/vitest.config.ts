import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { SAAS_FRONTEND_LIB_ALIASES } from './saas-frontend-lib.aliases';

/** Vitest configuration for the frontend: component tests run in jsdom (the browser tests have their own config). */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: SAAS_FRONTEND_LIB_ALIASES },
  test: {
    environment: 'jsdom',
    // Equivalent of `src/**/*.test.tsx?`: in a glob `?` means one character, not "optional".
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-support/setup.ts'],
    // The setup file resets what tests change (DOM, stubbed globals, mocks, storage) after each test, so the
    // files of a worker share one jsdom and their imports.
    isolate: false,
  },
});
