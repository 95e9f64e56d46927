import path from 'node:path';
import type { RuntimeConfiguration } from './engine/config/index.js';
import type { WildoBackendOptions } from './engine/index.js';
import { resolvePublicUrls } from './engine/public-urls/index.js';
import { engineEnvironment, parseTrustProxy, type BackendEnvironment } from './environment.schema.js';

// The resolution itself lives in the engine (one resolver for every absolute URL); re-exported for start-up code.
export {
  DEFAULT_PUBLIC_URL,
  resolvePublicUrls,
  type PublicUrlSource,
  type ResolvedPublicUrls,
} from './engine/public-urls/index.js';

/** Where the application's state lives (database, data directory, Redis), for the backend and for operator commands. */
export interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
}

/** The stores named by the environment: `DATABASE_URL`, `WILDO_DATA_DIR` (default `.wildo-saas/data` under the root), `REDIS_URL`. */
export function storeOptionsFromEnvironment(
  env: Pick<BackendEnvironment, 'DATABASE_URL' | 'WILDO_DATA_DIR' | 'REDIS_URL'>,
  rootDir: string,
): StoreOptions {
  return {
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: env.WILDO_DATA_DIR ?? path.join(rootDir, '.wildo-saas', 'data'),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
  };
}

/** Whether the backend runs in production: the configuration's environment, or `NODE_ENV=production`. */
export function isProduction(runtime: RuntimeConfiguration, env: Pick<BackendEnvironment, 'NODE_ENV'>): boolean {
  return runtime.application.environment === 'PRODUCTION' || env.NODE_ENV === 'production';
}

/**
 * Maps the generated runtime configuration and the process environment onto the engine's options: one
 * place where every setting of a running backend comes from.
 */
export function backendOptionsFromRuntime(
  runtime: RuntimeConfiguration,
  env: BackendEnvironment,
  rootDir: string,
): Omit<WildoBackendOptions, 'application' | 'logger'> {
  const production = isProduction(runtime, env);
  const { publicUrl, frontendUrl } = resolvePublicUrls(runtime, env, production);
  return {
    runtime,
    publicUrl,
    frontendUrl,
    identity: {
      accessTokenLifetimeMinutes: runtime.auth.accessTokenLifetimeMinutes,
    },
    oauth: {
      dynamicClientRegistration: runtime.auth.dynamicClientRegistration,
      cimd: { policy: runtime.auth.cimd.policy, allowedClients: [...runtime.auth.cimd.allowedClients] },
      consentGrantLifetimeDays: runtime.auth.consentGrantLifetimeDays,
    },
    ...storeOptionsFromEnvironment(env, rootDir),
    ...(env.WILDO_FILE_STORAGE ? { fileStorage: env.WILDO_FILE_STORAGE } : {}),
    mail: {
      ...(env.WILDO_SMTP_URL ? { smtpUrl: env.WILDO_SMTP_URL } : {}),
      ...(env.WILDO_MAIL_FROM ? { from: env.WILDO_MAIL_FROM } : {}),
    },
    ...(env.WILDO_PRIMARY_SECRET ? { primarySecret: env.WILDO_PRIMARY_SECRET } : {}),
    production,
    // Provider credentials and observability settings: only what the environment schema declares.
    env: engineEnvironment(env),
    http: {
      trustProxy: parseTrustProxy(env.WILDO_TRUST_PROXY),
      frontendDist: env.WILDO_FRONTEND_DIST ?? path.join(rootDir, 'frontend', 'dist'),
    },
  };
}
