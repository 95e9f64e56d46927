import { defineConfig } from 'vitest/config';

// Pure functions and schemas: nothing global to isolate, so files of a worker share their imports.
export default defineConfig({ test: { include: ['src/**/*.test.ts'], isolate: false } });
