import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { SAAS_FRONTEND_LIB_ALIASES } from './saas-frontend-lib.aliases';

/**
 * The host UI's component library as a package entry (`@wildo/frontend`, `@wildo/frontend/companion`): ES modules in
 * dist-lib/, React, shared-lib and zod left to the consumer (`pnpm build:lib`; declarations by tsconfig.lib.json).
 */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: SAAS_FRONTEND_LIB_ALIASES },
  build: {
    outDir: 'dist-lib',
    emptyOutDir: false,
    sourcemap: true,
    lib: {
      entry: { index: 'src/saas-frontend-lib/index.ts', companion: 'src/saas-frontend-lib/companion.ts' },
      formats: ['es'],
    },
    rollupOptions: {
      external: [/^react($|\/)/, /^react-dom($|\/)/, /^@wildo\/shared-lib($|\/)/, /^zod($|\/)/],
    },
  },
});
