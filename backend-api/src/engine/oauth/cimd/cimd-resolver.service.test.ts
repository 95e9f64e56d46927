import type { IncomingMessage, ServerResponse } from 'node:http';
import { CimdConfigSchema, CimdTrustPolicy, type CimdConfig } from '@wildo/shared-lib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../container/clock.js';
import type { HostResolver } from '../../net/index.js';
import { startHttpsServer, testCertificate, type LocalServer } from '../../net/test-support/local-servers.js';
import { CimdResolver, type CimdResolverLimits } from './cimd-resolver.service.js';
import { CimdResolutionError, type CimdResolutionReason } from './cimd.errors.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A document host serving `routes`, with a request counter per path. */
interface DocumentServer {
  server: LocalServer;
  port: number;
  hits(path: string): number;
  /** `https://tool.test:<port><path>`: `tool.test` is mapped to 127.0.0.1 by the injected resolver. */
  url(path: string): string;
  routes: Record<string, Route>;
}

async function startDocumentServer(routes: Record<string, Route> = {}): Promise<DocumentServer> {
  const counts = new Map<string, number>();
  const server = await startHttpsServer((request, response) => {
    const path = request.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  cleanups.push(() => server.close());
  return {
    server,
    port: server.port,
    hits: (path) => counts.get(path) ?? 0,
    url: (path) => `https://tool.test:${server.port}${path}`,
    routes,
  };
}

function json(body: unknown, headers: Record<string, string> = {}): Route {
  return (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json', ...headers })
      .end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

function documentFor(clientId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: clientId,
    client_name: 'Customer workspace tool',
    redirect_uris: ['https://tool.test/callback'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  };
}

function fakeClock(start = Date.UTC(2026, 0, 1)): Clock & { advanceSeconds(seconds: number): void } {
  let now = start;
  return { now: () => new Date(now), advanceSeconds: (seconds) => void (now += seconds * 1_000) };
}

const loopbackResolver: HostResolver = async (hostname) => {
  if (hostname === 'tool.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'tool.example') return [{ address: '10.0.0.5', family: 4 }];
  throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
};

function config(input: { policy: CimdTrustPolicy; allowedClients?: string[] }): CimdConfig {
  return CimdConfigSchema.parse(input);
}

/** A resolver whose guard is in development mode, may reach `docs` as tool.test, and trusts the test CA. */
function resolverFor(
  docs: DocumentServer,
  cimd: CimdConfig,
  options: { clock?: Clock; limits?: Partial<CimdResolverLimits> } = {},
): CimdResolver {
  const resolver = new CimdResolver({
    config: cimd,
    guard: {
      mode: 'development',
      developmentTargets: [{ host: 'tool.test', port: docs.port }],
      resolveHost: loopbackResolver,
      trustedCertificates: [testCertificate().cert],
    },
    ...options,
  });
  cleanups.push(() => resolver.close());
  return resolver;
}

async function expectRefused(promise: Promise<unknown>, reason: CimdResolutionReason): Promise<CimdResolutionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CimdResolutionError);
  expect((error as CimdResolutionError).reason).toBe(reason);
  return error as CimdResolutionError;
}

describe('CimdResolver: trust policy', () => {
  it('resolves an exactly allowlisted document URL (positive control)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId, { client_uri: 'https://tool.test/' }));
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.ALLOWLIST, allowedClients: [clientId] }));
    await expect(resolver.resolve(clientId)).resolves.toEqual({
      clientId,
      clientName: 'Customer workspace tool',
      redirectUris: ['https://tool.test/callback'],
      clientUri: 'https://tool.test/',
    });
  });

  it('resolves a document of an allowlisted bare host (positive control)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId));
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.ALLOWLIST, allowedClients: ['tool.test'] }));
    await expect(resolver.resolve(clientId)).resolves.toMatchObject({ clientId });
  });

  it('refuses a host that is not on the allowlist, without fetching', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId));
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.ALLOWLIST, allowedClients: ['other.test'] }));
    await expectRefused(resolver.resolve(clientId), 'not_allowlisted');
    expect(docs.hits('/client.json')).toBe(0);
  });

  it('refuses every client when DISABLED, without fetching', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId));
    await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.DISABLED })).resolve(clientId),
      'cimd_disabled',
    );
    expect(docs.hits('/client.json')).toBe(0);
  });

  it('resolves any valid document URL when OPEN (positive control)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId));
    await expect(resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId)).resolves.toMatchObject({
      clientId,
    });
  });

  it('refuses a client_id that is not a valid https document URL', async () => {
    const docs = await startDocumentServer();
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN }));
    await expectRefused(resolver.resolve(`http://tool.test:${docs.port}/client.json`), 'invalid_client_id_url');
  });
});

describe('CimdResolver: document validation', () => {
  it('refuses a document whose client_id differs from its URL', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(docs.url('/someone-else.json')));
    await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'client_id_mismatch',
    );
  });

  it.each(['private_key_jwt', 'client_secret_basic', 'client_secret_post'])(
    'refuses token_endpoint_auth_method %s instead of treating the client as public',
    async (method) => {
      const docs = await startDocumentServer();
      const clientId = docs.url('/client.json');
      docs.routes['/client.json'] = json(documentFor(clientId, { token_endpoint_auth_method: method }));
      await expectRefused(
        resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
        'unsupported_auth_method',
      );
    },
  );

  it('treats an absent token_endpoint_auth_method as none (positive control)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    const { token_endpoint_auth_method: _omitted, ...document } = documentFor(clientId);
    docs.routes['/client.json'] = json(document);
    await expect(resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId)).resolves.toMatchObject({
      clientId,
    });
  });

  it.each([
    ['not JSON', 'SECRET-MARKER <html>'],
    ['a JSON array', '["SECRET-MARKER"]'],
  ])('refuses a body that is %s, without echoing it', async (_kind, body) => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(body);
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'invalid_document',
    );
    expect(error.message).not.toContain('SECRET-MARKER');
  });

  it('refuses an invalid document with the failing paths only, never the values', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(
      documentFor(clientId, { client_name: 'SECRET-MARKER', redirect_uris: ['http://SECRET-MARKER.test/cb'] }),
    );
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'invalid_document',
    );
    expect(error.problemPaths).toEqual(['redirect_uris.0']);
    expect(JSON.stringify({ message: error.message, problemPaths: error.problemPaths })).not.toContain('SECRET-MARKER');
  });

  it('refuses a document whose client name holds a lone surrogate (stored with a remembered consent)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId, { client_name: 'Tool \ud800 SECRET-MARKER' }));
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'invalid_document',
    );
    expect(error.problemPaths).toEqual(['client_name']);
    expect(JSON.stringify({ message: error.message, problemPaths: error.problemPaths })).not.toContain('SECRET-MARKER');
  });
});

describe('CimdResolver: outbound guard', () => {
  it('refuses an allowlisted document whose host resolves to a private address in production mode', async () => {
    const resolver = new CimdResolver({
      config: config({ policy: CimdTrustPolicy.ALLOWLIST, allowedClients: ['https://tool.example/client.json'] }),
      guard: { mode: 'production', resolveHost: loopbackResolver },
    });
    cleanups.push(() => resolver.close());
    const error = await expectRefused(resolver.resolve('https://tool.example/client.json'), 'fetch_refused');
    expect(error.guardReason).toBe('address_not_public');
  });

  it('fetches in production mode by default, so a loopback document is refused without being fetched', async () => {
    const docs = await startDocumentServer();
    const clientId = `https://127.0.0.1:${docs.port}/client.json`;
    docs.routes['/client.json'] = json(documentFor(clientId));
    const resolver = new CimdResolver({ config: config({ policy: CimdTrustPolicy.OPEN }) });
    cleanups.push(() => resolver.close());
    const error = await expectRefused(resolver.resolve(clientId), 'fetch_refused');
    expect(error.guardReason).toBe('address_not_public');
    expect(docs.hits('/client.json')).toBe(0);
  });

  it('refuses a redirect to another document without following it', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = (_request, response) =>
      response.writeHead(302, { location: docs.url('/other.json') }).end();
    docs.routes['/other.json'] = json(documentFor(docs.url('/other.json')));
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'fetch_refused',
    );
    expect(error.guardReason).toBe('redirect_refused');
    expect(docs.hits('/other.json')).toBe(0);
  });

  it('refuses a document larger than 64 KiB', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId, { padding: 'x'.repeat(70_000) }));
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId),
      'fetch_refused',
    );
    expect(error.guardReason).toBe('too_large');
  });

  it('accepts a document just under 64 KiB (positive control)', async () => {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId, { padding: 'x'.repeat(60_000) }));
    await expect(resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(clientId)).resolves.toMatchObject({
      clientId,
    });
  });

  it('refuses a document served with a non-2xx status', async () => {
    const docs = await startDocumentServer();
    const error = await expectRefused(
      resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN })).resolve(docs.url('/missing.json')),
      'fetch_refused',
    );
    expect(error.guardReason).toBe('bad_status');
  });
});

describe('CimdResolver: cache', () => {
  async function cachedSetup(headers: Record<string, string> = {}, limits: Partial<CimdResolverLimits> = {}) {
    const docs = await startDocumentServer();
    const clientId = docs.url('/client.json');
    docs.routes['/client.json'] = json(documentFor(clientId), headers);
    const clock = fakeClock();
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN }), { clock, limits });
    return { docs, clientId, clock, resolver, hits: () => docs.hits('/client.json') };
  }

  it('serves a second resolution within the lifetime from the cache', async () => {
    const { clientId, resolver, hits } = await cachedSetup();
    const first = await resolver.resolve(clientId);
    await expect(resolver.resolve(clientId)).resolves.toEqual(first);
    expect(hits()).toBe(1);
  });

  it('refetches after the default five-minute lifetime', async () => {
    const { clientId, clock, resolver, hits } = await cachedSetup();
    await resolver.resolve(clientId);
    clock.advanceSeconds(299);
    await resolver.resolve(clientId);
    expect(hits()).toBe(1);
    clock.advanceSeconds(2);
    await resolver.resolve(clientId);
    expect(hits()).toBe(2);
  });

  it('honours Cache-Control max-age within bounds', async () => {
    const { clientId, clock, resolver, hits } = await cachedSetup({ 'cache-control': 'public, max-age=3600' });
    await resolver.resolve(clientId);
    clock.advanceSeconds(3_599);
    await resolver.resolve(clientId);
    expect(hits()).toBe(1);
    clock.advanceSeconds(2);
    await resolver.resolve(clientId);
    expect(hits()).toBe(2);
  });

  it('raises a max-age below 60 s (and no-store) to 60 s', async () => {
    const { clientId, clock, resolver, hits } = await cachedSetup({ 'cache-control': 'no-store, max-age=5' });
    await resolver.resolve(clientId);
    clock.advanceSeconds(59);
    await resolver.resolve(clientId);
    expect(hits()).toBe(1);
    clock.advanceSeconds(2);
    await resolver.resolve(clientId);
    expect(hits()).toBe(2);
  });

  it('caps a max-age above 24 h at 24 h', async () => {
    const { clientId, clock, resolver, hits } = await cachedSetup({ 'cache-control': 'max-age=31536000' });
    await resolver.resolve(clientId);
    clock.advanceSeconds(86_399);
    await resolver.resolve(clientId);
    expect(hits()).toBe(1);
    clock.advanceSeconds(2);
    await resolver.resolve(clientId);
    expect(hits()).toBe(2);
  });

  it('shares one fetch between concurrent resolutions of the same client', async () => {
    const { clientId, resolver, hits } = await cachedSetup();
    const results = await Promise.all(Array.from({ length: 5 }, () => resolver.resolve(clientId)));
    expect(new Set(results.map((client) => client.clientId)).size).toBe(1);
    expect(hits()).toBe(1);
  });

  it('keeps at most maxEntries documents, evicting the least recently used', async () => {
    const docs = await startDocumentServer();
    const ids = ['/a.json', '/b.json', '/c.json'].map((path) => {
      docs.routes[path] = json(documentFor(docs.url(path)));
      return docs.url(path);
    });
    const resolver = resolverFor(docs, config({ policy: CimdTrustPolicy.OPEN }), {
      clock: fakeClock(),
      limits: { maxEntries: 2 },
    });
    for (const id of ids) await resolver.resolve(id);
    await resolver.resolve(ids[2] as string);
    expect(docs.hits('/c.json')).toBe(1);
    await resolver.resolve(ids[0] as string);
    expect(docs.hits('/a.json')).toBe(2);
  });

  it('remembers a failure only briefly, then resolves the fixed document', async () => {
    const { docs, clientId, clock, resolver, hits } = await cachedSetup();
    docs.routes['/client.json'] = json(documentFor(clientId, { token_endpoint_auth_method: 'private_key_jwt' }));
    await expectRefused(resolver.resolve(clientId), 'unsupported_auth_method');
    await expectRefused(resolver.resolve(clientId), 'unsupported_auth_method');
    expect(hits()).toBe(1);
    docs.routes['/client.json'] = json(documentFor(clientId));
    clock.advanceSeconds(31);
    await expect(resolver.resolve(clientId)).resolves.toMatchObject({ clientId });
    expect(hits()).toBe(2);
  });
});
