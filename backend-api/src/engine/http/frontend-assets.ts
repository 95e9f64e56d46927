import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

/**
 * Serves the built frontend (Vite `dist/`) from the backend's origin, with the single-page fallback for its
 * client-side routes (`/login`, `/oauth/authorize`, `/account/...`). API and well-known paths are never
 * answered with the page. Returns null when the directory has no build.
 */
export function createFrontendRouter(distDir: string): Router | null {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return null;
  const router = Router();
  router.use(express.static(distDir, { index: false, fallthrough: true, maxAge: '1h', setHeaders: (res, file) => {
    // Hashed assets may be cached; the page itself must always be fresh.
    if (file.endsWith('.html')) res.setHeader('cache-control', 'no-store');
  } }));
  router.get(/^\/(?!api\/|\.well-known\/).*/, (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    res.sendFile(index);
  });
  return router;
}
