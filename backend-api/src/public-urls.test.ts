import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfiguration } from './engine/config/index.js';
import type { UploadGrantResponse } from './engine/files/file-upload-grant.schema.js';
import { mintGrant } from './engine/files/files.fixtures.js';
import { parseBackendEnvironment } from './environment.schema.js';
import { backendOptionsFromRuntime } from './server-options.js';
import { readGeneratedRuntime } from './testing/generated-runtime.js';
import { createOrganization, signUp, type TestUser } from './testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from './testing/test-backend.js';

// Every absolute URL a backend writes comes from the one resolver, whatever the environment says: started the way
// `main.ts` starts it, with `PORT` and with `WILDO_PUBLIC_URL`, the issuer, the discovery documents, the agent card,
// the MCP metadata and the upload grants (upload, status and drop page URLs, the commands) all name the same server,
// and the drop page's CORS follows it.

const database = useTestDatabase();
let runtime: RuntimeConfiguration;
beforeAll(async () => {
  runtime = await readGeneratedRuntime();
});

/** A backend started with `env` as the reference `main.ts` maps it (its stores are the test's own). */
async function startedWith(env: Readonly<Record<string, string | undefined>>): Promise<TestBackend> {
  const { publicUrl, frontendUrl } = backendOptionsFromRuntime(runtime, parseBackendEnvironment(env), process.cwd());
  return createTestBackend(database(), {
    ...(publicUrl ? { publicUrl } : {}),
    ...(frontendUrl ? { frontendUrl } : {}),
  });
}

async function mintedGrant(t: TestBackend): Promise<UploadGrantResponse> {
  const owner: TestUser = await signUp(t.api, 'urls');
  const org = await createOrganization(t.api, owner, 'Urls Inc');
  return mintGrant(t.api, owner, `/api/v1/organizations/${org}/knowledge-documents/files/document/grant`, {
    name: 'guide.pdf',
    mimeType: 'application/pdf',
  });
}

describe.each([
  { env: { PORT: '4399' }, base: 'http://localhost:4399' },
  { env: { PORT: '4241', WILDO_PUBLIC_URL: 'https://todos.example.test/' }, base: 'https://todos.example.test' },
])('a backend started with $env', ({ env, base }) => {
  let t: TestBackend;
  let grant: UploadGrantResponse;
  beforeAll(async () => {
    t = await startedWith(env);
    grant = await mintedGrant(t);
  });
  afterAll(() => t.close());

  it('writes its upload grants with its own public URL: upload, status, drop page and the commands', async () => {
    expect(grant.uploadUrl).toMatch(
      new RegExp(`^${base}/api/v1/organizations/[^/]+/knowledge-documents/files/document/upload$`),
    );
    expect(grant.statusUrl.startsWith(`${base}/api/v1/files/upload-grants/`)).toBe(true);
    expect(grant.uploadPageUrl?.startsWith(`${base}/uploads#grant=`)).toBe(true);
    expect(grant.uploadCommand).toContain(`'${grant.uploadUrl}'`);
    expect(grant.uploadCommands.powershell).toContain(`"${grant.uploadUrl}"`);
    expect(JSON.stringify(grant)).not.toContain('localhost:4241');
    const status = await t.api.get(new URL(grant.statusUrl).pathname);
    expect(status.body).toMatchObject({ state: 'pending', uploadUrl: grant.uploadUrl });
  });

  it('names the same server as issuer, in the discovery documents, the agent card and the MCP metadata', async () => {
    const discovery = (await t.api.get('/.well-known/oauth-authorization-server')).body;
    expect(discovery).toMatchObject({ issuer: base, authorization_endpoint: `${base}/oauth/authorize` });
    const card = (await t.api.get('/.well-known/agent.json')).body;
    expect(card.url).toBe(`${base}/api/v1/a2a`);
    const mcp = (await t.api.get('/.well-known/oauth-protected-resource/api/v1/mcp')).body;
    expect(mcp).toMatchObject({ resource: `${base}/api/v1/mcp`, authorization_servers: [base] });
  });

  it('lets the drop page call the upload route from its own origin, and not from the default one', async () => {
    const preflight = (origin: string) =>
      t.api
        .options(new URL(grant.uploadUrl).pathname)
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST');
    expect((await preflight(base)).headers['access-control-allow-origin']).toBe(base);
    expect((await preflight('http://localhost:4241')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a backend without a configured public URL', () => {
  it('refuses to mint a grant rather than take a URL from the Host header', async () => {
    const headless = { ...runtime, runtime: { ...runtime.runtime, endPoints: {} } } as RuntimeConfiguration;
    await using t = await createTestBackend(database(), { runtime: headless, allowServerErrors: true });
    const owner = await signUp(t.api, 'no-url');
    const org = await createOrganization(t.api, owner, 'No URL');
    const res = await t.api
      .post(`/api/v1/organizations/${org}/knowledge-documents/files/document/grant`)
      .set(owner.auth)
      .set('Host', 'attacker.example')
      .send({});
    expect(res.status).toBe(503);
    expect(res.body.error.message).toContain('WILDO_PUBLIC_URL');
    expect(JSON.stringify(res.body)).not.toContain('attacker.example');
  });
});
