import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { SAAS_FRONTEND_LIB_ALIASES } from './saas-frontend-lib.aliases';

/** Vite configuration for the Wildo web shell: dev server on 4242, `/api` proxied to the backend on 4241. */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: SAAS_FRONTEND_LIB_ALIASES },
  server: {
    port: 4242,
    strictPort: true,
    proxy: {
      '/api': { target: 'http://localhost:4241', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
