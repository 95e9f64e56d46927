import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startBackendProcess, type BackendProcess } from './testing/backend-process.js';

// The real entry point (`tsx src/main.ts`, as `npm start` runs it) on a free port and a temporary data directory.
const dataDirs: string[] = [];

async function start(env: Record<string, string>): Promise<BackendProcess> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'wildo-main-'));
  dataDirs.push(dataDir);
  return startBackendProcess({ WILDO_DATA_DIR: dataDir, ...env });
}

async function getJson(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

describe('the backend process and its public URL', () => {
  let followsPort: BackendProcess | undefined;
  let overridden: BackendProcess | undefined;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    // Both start at once: most of a start is loading the sources.
    const [a, b] = await Promise.allSettled([start({ PORT: String(port) }), freePort().then((other) => start({ PORT: String(other), WILDO_PUBLIC_URL: 'https://todos.example.test/' }))]);
    if (a.status === 'fulfilled') followsPort = a.value;
    if (b.status === 'fulfilled') overridden = b.value;
    for (const result of [a, b]) if (result.status === 'rejected') throw result.reason;
  }, 240_000);
  afterAll(async () => {
    await Promise.all([followsPort?.stop(), overridden?.stop()]);
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('follows PORT in development: the issuer and the MCP resource metadata name the port it listens on', async () => {
    const backend = followsPort!;
    const expected = `http://localhost:${port}`;
    expect(backend.url).toBe(`http://127.0.0.1:${port}`);
    expect(backend.publicUrl).toBe(expected);
    const metadata = await getJson(`${backend.url}/.well-known/oauth-authorization-server`);
    expect(metadata.issuer).toBe(expected);
    expect(metadata.authorization_endpoint).toMatch(new RegExp(`^${expected}/`));
    expect(metadata.token_endpoint).toMatch(new RegExp(`^${expected}/`));
    const resource = await getJson(`${backend.url}/.well-known/oauth-protected-resource/api/v1/mcp`);
    expect(resource).toMatchObject({ resource: `${expected}/api/v1/mcp`, authorization_servers: [expected] });
  });

  it('uses WILDO_PUBLIC_URL over the configuration and the port', async () => {
    const backend = overridden!;
    expect(backend.publicUrl).toBe('https://todos.example.test');
    expect(await getJson(`${backend.url}/.well-known/oauth-authorization-server`)).toMatchObject({ issuer: 'https://todos.example.test' });
    expect(await getJson(`${backend.url}/.well-known/oauth-protected-resource/api/v1/mcp`)).toMatchObject({
      resource: 'https://todos.example.test/api/v1/mcp',
      authorization_servers: ['https://todos.example.test'],
    });
  });
});
