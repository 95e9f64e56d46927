import { z } from 'zod';

const optionalText = z.string().trim().min(1).optional().catch(undefined);

/**
 * The process environment the backend reads, each variable with its default. Secrets come only from here,
 * never from the generated configuration.
 */
export const BackendEnvironmentSchema = z.object({
  /** Port to listen on. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(4241),
  /** Interface to listen on; set 0.0.0.0 inside containers. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** PostgreSQL URL; PGlite under the data directory when absent. */
  DATABASE_URL: optionalText,
  /** Redis URL for rate limits, pub/sub and leases across replicas; in-process when absent. */
  REDIS_URL: optionalText,
  /** Where embedded data lives (PGlite, the development secret); default `.wildo-saas/data` under the project root. */
  WILDO_DATA_DIR: optionalText,
  /** The primary secret every signing key derives from; required in production. */
  WILDO_PRIMARY_SECRET: optionalText,
  /** The built frontend to serve (default `frontend/dist` under the project root, when it exists). */
  WILDO_FRONTEND_DIST: optionalText,
  /** Express `trust proxy`: `true`, a hop count, or a list of addresses. */
  WILDO_TRUST_PROXY: optionalText,
  NODE_ENV: optionalText,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});
export type BackendEnvironment = z.infer<typeof BackendEnvironmentSchema>;

/** `true`/`false`/a number/the text as given. */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}
