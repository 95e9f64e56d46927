import path from 'node:path';
import type { RuntimeConfiguration } from './engine/config/index.js';
import type { WildoBackendOptions } from './engine/index.js';
import { parseTrustProxy, type BackendEnvironment } from './environment.schema.js';

/** Where the application's state lives (database, data directory, Redis), for the backend and for operator commands. */
export interface StoreOptions {
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
}

/** The stores named by the environment: `DATABASE_URL`, `WILDO_DATA_DIR` (default `.wildo-saas/data` under the root), `REDIS_URL`. */
export function storeOptionsFromEnvironment(env: Pick<BackendEnvironment, 'DATABASE_URL' | 'WILDO_DATA_DIR' | 'REDIS_URL'>, rootDir: string): StoreOptions {
  return {
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: env.WILDO_DATA_DIR ?? path.join(rootDir, '.wildo-saas', 'data'),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
  };
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
  const endPoints = runtime.runtime.endPoints;
  const publicUrl = endPoints.main_backend_api?.publicUrl ?? `http://localhost:${env.PORT}`;
  const frontend = runtime.defaultFrontendService ? endPoints[runtime.defaultFrontendService]?.publicUrl : undefined;
  return {
    runtime,
    publicUrl,
    frontendUrl: frontend ?? publicUrl,
    identity: {
      accessTokenLifetimeMinutes: runtime.auth.accessTokenLifetimeMinutes,
    },
    oauth: {
      dynamicClientRegistration: runtime.auth.dynamicClientRegistration,
      cimd: { policy: runtime.auth.cimd.policy, allowedClients: [...runtime.auth.cimd.allowedClients] },
      consentGrantLifetimeDays: runtime.auth.consentGrantLifetimeDays,
    },
    ...storeOptionsFromEnvironment(env, rootDir),
    ...(env.WILDO_PRIMARY_SECRET ? { primarySecret: env.WILDO_PRIMARY_SECRET } : {}),
    production: runtime.application.environment === 'PRODUCTION' || env.NODE_ENV === 'production',
    http: {
      trustProxy: parseTrustProxy(env.WILDO_TRUST_PROXY),
      frontendDist: env.WILDO_FRONTEND_DIST ?? path.join(rootDir, 'frontend', 'dist'),
    },
  };
}
