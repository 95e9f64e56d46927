import type { RuntimeConfiguration } from '../config/index.js';

/** The backend's public URL in a fresh configuration (`wildo.saas.config.ts`), and the default port's. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:4241';

/** Where the public URL came from, for the start-up log. */
export type PublicUrlSource = 'WILDO_PUBLIC_URL' | 'PORT' | 'configuration';

/** The URLs clients are told (token issuer, audiences, discovery documents, the consent page's origin). */
export interface ResolvedPublicUrls {
  publicUrl: string;
  frontendUrl: string;
  source: PublicUrlSource;
}

/** What {@link resolvePublicUrls} reads of the environment. */
export interface PublicUrlEnvironment {
  PORT: number;
  WILDO_PUBLIC_URL?: string | undefined;
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
  env: PublicUrlEnvironment,
  production: boolean,
): ResolvedPublicUrls {
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

/**
 * The one place a running backend takes its absolute URLs from: every token issuer, audience, discovery document,
 * agent card, consent page, upload grant (`uploadUrl`, `statusUrl`, `uploadPageUrl`, the upload commands) and mail
 * link is built here, from the URLs resolved at start (never from a request's `Host`).
 *
 * @example
 * const urls = new PublicUrls({ backend: 'https://api.todos.example', pages: 'https://todos.example', pagesDeclared: true });
 * urls.api('/files/upload-grants/abc'); // https://api.todos.example/api/v1/files/upload-grants/abc
 */
export class PublicUrls {
  /** The backend's public URL (the token issuer), without a trailing slash. */
  readonly backend: string;
  /** Where the pages are served (the consent page, the drop page, links in mails), without a trailing slash. */
  readonly pages: string;
  /**
   * Whether the application declares a frontend service: a headless deployment gets no drop page URL and no
   * cross-origin access for one. (The consent page is served either way, by the backend itself.)
   */
  readonly pagesDeclared: boolean;

  constructor(urls: { backend: string; pages?: string; pagesDeclared?: boolean }) {
    this.backend = withoutTrailingSlash(urls.backend);
    this.pages = withoutTrailingSlash(urls.pages ?? urls.backend);
    this.pagesDeclared = urls.pagesDeclared ?? false;
  }

  /** An absolute URL of a backend path (`/.well-known/...`, or an API path with its prefix). */
  backendUrl(path: string): string {
    return `${this.backend}${path}`;
  }

  /** An absolute URL of a page (`/oauth/authorize`, `/uploads#...`, `/verify-email#...`). */
  pageUrl(path: string): string {
    return `${this.pages}${path}`;
  }

  /** The pages' origin when a frontend is declared (the one origin allowed to call the upload routes from a page). */
  pagesOrigin(): string | undefined {
    return this.pagesDeclared ? new URL(this.pages).origin : undefined;
  }
}

/** Whether a runtime configuration declares a default frontend service. */
export function declaresFrontend(runtime: Partial<RuntimeConfiguration> | undefined): boolean {
  const service = runtime?.defaultFrontendService;
  return typeof service === 'string' && runtime?.frontendServices?.[service] !== undefined;
}
