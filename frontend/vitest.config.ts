import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Vitest configuration for the frontend: component tests run in jsdom. */
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    // Equivalent of `src/**/*.test.tsx?`: in a glob `?` means one character, not "optional".
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
