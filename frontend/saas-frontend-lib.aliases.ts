import { fileURLToPath } from 'node:url';

/**
 * `@wildo-ai/saas-frontend-lib` (and its `/companion` entry), the guide's names for the host's frontend library,
 * resolved to `src/saas-frontend-lib` by Vite and Vitest (tsconfig.json maps the same names for the compiler).
 */
export const SAAS_FRONTEND_LIB_ALIASES = [
  {
    find: /^@wildo-ai\/saas-frontend-lib\/companion$/,
    replacement: fileURLToPath(new URL('./src/saas-frontend-lib/companion.ts', import.meta.url)),
  },
  {
    find: /^@wildo-ai\/saas-frontend-lib$/,
    replacement: fileURLToPath(new URL('./src/saas-frontend-lib/index.ts', import.meta.url)),
  },
];
