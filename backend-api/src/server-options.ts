import path from 'node:path';
import type { RuntimeConfiguration } from './engine/config/index.js';
import type { WildoBackendOptions } from './engine/index.js';
import { parseTrustProxy, type BackendEnvironment } from './environment.schema.js';

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
      bootstrapAdminEmails: env.WILDO_BOOTSTRAP_ADMIN_EMAILS.split(',').map((e) => e.trim()).filter(Boolean),
    },
    oauth: {
      dynamicClientRegistration: runtime.auth.dynamicClientRegistration,
      cimd: { policy: runtime.auth.cimd.policy, allowedClients: [...runtime.auth.cimd.allowedClients] },
      consentGrantLifetimeDays: runtime.auth.consentGrantLifetimeDays,
    },
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: env.WILDO_DATA_DIR ?? path.join(rootDir, '.wildo-saas', 'data'),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    ...(env.WILDO_PRIMARY_SECRET ? { primarySecret: env.WILDO_PRIMARY_SECRET } : {}),
    production: runtime.application.environment === 'PRODUCTION' || env.NODE_ENV === 'production',
    http: {
      trustProxy: parseTrustProxy(env.WILDO_TRUST_PROXY),
      frontendDist: env.WILDO_FRONTEND_DIST ?? path.join(rootDir, 'frontend', 'dist'),
    },
  };
}
