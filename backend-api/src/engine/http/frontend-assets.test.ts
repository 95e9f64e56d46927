import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { PAGE_CONTENT_SECURITY_POLICY, PAGE_REFERRER_POLICY } from './frontend-assets.js';

const PAGE = '<!doctype html><title>Wildo</title><div id="root"></div>';

describe('the built frontend served from the backend', () => {
  const database = useTestDatabase();
  let parentDir: string;
  let distDir: string;
  let t: TestBackend;

  beforeAll(async () => {
    parentDir = await mkdtemp(path.join(tmpdir(), 'wildo-frontend-'));
    // Under a dot directory (as in ~/.local/share or node_modules/.cache): the page must still be served.
    distDir = path.join(parentDir, '.build', 'dist');
    await mkdir(path.join(distDir, 'assets'), { recursive: true });
    await writeFile(path.join(distDir, 'index.html'), PAGE);
    await writeFile(path.join(distDir, 'assets', 'app-1234.js'), 'console.log("app");');
    t = await createTestBackend(database(), { http: { frontendDist: distDir } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(parentDir, { recursive: true, force: true });
  });

  function expectPageHeaders(res: { headers: Record<string, string>; text: string; status: number }) {
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(PAGE);
    expect(res.headers['content-security-policy']).toBe(PAGE_CONTENT_SECURITY_POLICY);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    // `same-origin` is stricter than `strict-origin-when-cross-origin`: nothing of the page's address leaves the site.
    expect(res.headers['referrer-policy']).toBe(PAGE_REFERRER_POLICY);
    expect(PAGE_REFERRER_POLICY).toBe('same-origin');
  }

  it('answers / with the page and its security headers', async () => {
    expectPageHeaders(await t.api.get('/'));
  });

  it('answers /index.html (a file the static handler finds) with the same headers', async () => {
    expectPageHeaders(await t.api.get('/index.html'));
  });

  it('answers a client-side route (/login) and an unknown path with the page and its headers', async () => {
    expectPageHeaders(await t.api.get('/login'));
    expectPageHeaders(await t.api.get('/no/such/page'));
  });

  it('answers a directory path with the page, not a redirect page without headers', async () => {
    expectPageHeaders(await t.api.get('/assets'));
  });

  it('serves an asset as itself, cacheable and without the page policy', async () => {
    const res = await t.api.get('/assets/app-1234.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('never answers API or well-known paths with the page: a miss there is a JSON 404', async () => {
    const res = await t.api.get('/api/v1/no-such-endpoint');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const wellKnown = await t.api.get('/.well-known/no-such-document');
    expect(wellKnown.status).toBe(404);
    expect(wellKnown.headers['content-type']).toMatch(/^application\/json/);
  });
});
