import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Response } from 'express';

/** The policy of every page: same-origin resources only, never framed (the consent page must not be clickjacked). */
export const PAGE_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

/** The referrer policy of every page: the full address within the site, nothing to other sites. */
export const PAGE_REFERRER_POLICY = 'same-origin';

/** Headers every HTML response of the frontend carries, whichever route served it. */
function setPageHeaders(res: Response): void {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('content-security-policy', PAGE_CONTENT_SECURITY_POLICY);
  res.setHeader('x-content-type-options', 'nosniff');
  // No page address (with its query) ever leaves for another site: links and redirects out carry no referrer.
  res.setHeader('referrer-policy', PAGE_REFERRER_POLICY);
}

/**
 * Serves the built frontend (Vite `dist/`) from the backend's origin, with the single-page fallback for its
 * client-side routes (`/login`, `/oauth/authorize`, `/account/...`). API and well-known paths are never
 * answered with the page. Every HTML response (`/`, `/index.html`, a client route) carries the page headers.
 * Returns null when the directory has no build.
 */
export function createFrontendRouter(distDir: string): Router | null {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return null;
  const router = Router();
  router.use(
    express.static(distDir, {
      index: false,
      // A directory would get express's HTML redirect page (without the page headers): the fallback answers instead.
      redirect: false,
      fallthrough: true,
      maxAge: '1h',
      setHeaders: (res, file) => {
        // A page must always be fresh and carry its policy; hashed assets may be cached (the request context
        // set no-store on every response: dropping it lets the static handler apply `maxAge`).
        if (file.endsWith('.html')) setPageHeaders(res);
        else res.removeHeader('cache-control');
      },
    }),
  );
  router.get(/^\/(?!api\/|\.well-known\/).*/, (_req, res) => {
    setPageHeaders(res);
    // Relative to its root: `send` refuses a path with a dot segment (`~/.local/...`) unless the dot is above the root.
    res.sendFile('index.html', { root: distDir });
  });
  return router;
}
