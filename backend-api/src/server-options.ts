import path from 'node:path';
import type { RuntimeConfiguration } from './engine/config/index.js';
import type { WildoBackendOptions } from './engine/index.js';
import { engineEnvironment, parseTrustProxy, type BackendEnvironment } from './environment.schema.js';

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

/** The backend's public URL in a fresh configuration (`wildo.saas.config.ts`), and the default port's. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:4241';

/** Where the public URL came from, for the start-up log. */
export type PublicUrlSource = 'WILDO_PUBLIC_URL' | 'PORT' | 'configuration';

/** The URLs clients are told (token issuer, audiences, discovery documents, the consent page's origin). */
export interface PublicUrls {
  publicUrl: string;
  frontendUrl: string;
  source: PublicUrlSource;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');
const sameUrl = (a: string, b: string) =>
  withoutTrailingSlash(new URL(a).href) === withoutTrailingSlash(new URL(b).href);

/**
 * The public URLs of a backend: `WILDO_PUBLIC_URL` wherever it is set (production too); else, in development,
 * a configuration that keeps the default `http://localhost:4241` follows the port actually asked for (`PORT`,
 * when it names one: with `PORT=0` the port is only known after listening, so the default stays); else the
 * configured `main_backend_api` URL. The default frontend follows the backend when it was configured on the
 * backend's own origin.
 */
export function resolvePublicUrls(
  runtime: RuntimeConfiguration,
  env: Pick<BackendEnvironment, 'PORT' | 'WILDO_PUBLIC_URL'>,
  production: boolean,
): PublicUrls {
  const endPoints = runtime.runtime.endPoints;
  const configured = endPoints.main_backend_api?.publicUrl ?? DEFAULT_PUBLIC_URL;
  const configuredFrontend = runtime.defaultFrontendService
    ? endPoints[runtime.defaultFrontendService]?.publicUrl
    : undefined;
  let publicUrl = withoutTrailingSlash(configured);
  let source: PublicUrlSource = 'configuration';
  if (env.WILDO_PUBLIC_URL) {
    publicUrl = withoutTrailingSlash(env.WILDO_PUBLIC_URL);
    source = 'WILDO_PUBLIC_URL';
  } else if (
    !production &&
    sameUrl(configured, DEFAULT_PUBLIC_URL) &&
    env.PORT > 0 &&
    `http://localhost:${env.PORT}` !== DEFAULT_PUBLIC_URL
  ) {
    publicUrl = `http://localhost:${env.PORT}`;
    source = 'PORT';
  }
  const frontendFollows = configuredFrontend === undefined || sameUrl(configuredFrontend, configured);
  return { publicUrl, frontendUrl: frontendFollows ? publicUrl : withoutTrailingSlash(configuredFrontend), source };
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
