import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostResolver } from './guarded-connector.js';
import { OutboundTargetRefused, type OutboundRefusalReason } from './outbound-target.errors.js';
import { OutboundTargetGuard, createOutboundFetch, type OutboundTargetGuardOptions } from './outbound-target.guard.js';
import {
  startHttpServer,
  startHttpsServer,
  startSilentTcpServer,
  testCertificate,
  type LocalServer,
} from './test-support/local-servers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function track<T extends { close(): Promise<void> }>(resource: T): T {
  cleanups.push(() => resource.close());
  return resource;
}

function guard(options: OutboundTargetGuardOptions): OutboundTargetGuard {
  return track(new OutboundTargetGuard(options));
}

/** A development guard that may reach exactly `server` on 127.0.0.1 and trusts the test certificate. */
function developmentGuardFor(
  server: LocalServer,
  options: Partial<OutboundTargetGuardOptions> = {},
): OutboundTargetGuard {
  return guard({
    mode: 'development',
    developmentTargets: [{ host: '127.0.0.1', port: server.port }],
    trustedCertificates: [testCertificate().cert],
    ...options,
  });
}

function resolverFor(map: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = map[hostname];
    if (!addresses) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
}

async function refusal(promise: Promise<unknown>): Promise<OutboundTargetRefused> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundTargetRefused);
  return error as OutboundTargetRefused;
}

async function expectRefused(promise: Promise<unknown>, reason: OutboundRefusalReason): Promise<OutboundTargetRefused> {
  const error = await refusal(promise);
  expect(error.reason).toBe(reason);
  return error;
}

function hello(_request: unknown, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' }).end('hello from the test server');
}

describe('OutboundTargetGuard: positive control', () => {
  it('fetches from an explicitly allowed loopback HTTPS target in development mode with the test CA trusted', async () => {
    const server = track(await startHttpsServer(hello));
    const result = await developmentGuardFor(server).fetch(server.url('/doc'));
    expect(result).toMatchObject({ status: 200, text: 'hello from the test server' });
    expect(result.headers['content-type']).toBe('text/plain');
  });

  it('works through the fetch-like function of createOutboundFetch', async () => {
    const server = track(await startHttpsServer(hello));
    const fetchGuarded = track(
      createOutboundFetch({
        mode: 'development',
        developmentTargets: [{ host: '127.0.0.1', port: server.port }],
        trustedCertificates: [testCertificate().cert],
      }),
    );
    await expect(fetchGuarded(server.url('/'))).resolves.toMatchObject({
      status: 200,
      text: 'hello from the test server',
    });
  });

  it('sends a method, headers and a body (as push callbacks will)', async () => {
    let received = '';
    const server = track(
      await startHttpsServer((request, response) => {
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => (received += chunk));
        request.on('end', () => response.writeHead(204).end());
      }),
    );
    const result = await developmentGuardFor(server).fetch(server.url('/hook'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
    expect(result.status).toBe(204);
    expect(received).toBe('{"ok":true}');
  });
});

describe('OutboundTargetGuard: literal addresses', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/'],
    ['loopback (decimal host form)', 'https://2130706433/'],
    ['loopback (hex shorthand form)', 'https://0x7f.1/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['private', 'https://10.0.0.5/'],
    ['private 192.168', 'https://192.168.0.10/'],
    ['link-local metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unique-local', 'https://[fd12:3456::1]/'],
    ['IPv6 link-local', 'https://[fe80::1]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.5]/'],
    ['NAT64 of a private address', 'https://[64:ff9b::a00:5]/'],
  ])('refuses a %s literal (%s) in production mode', async (_kind, url) => {
    await expectRefused(guard({ mode: 'production' }).fetch(url), 'address_not_public');
  });

  it('accepts a public literal at the URL check (positive control, no network)', () => {
    expect(guard({ mode: 'production' }).policy.checkUrl('https://93.184.215.14/doc').href).toBe(
      'https://93.184.215.14/doc',
    );
  });

  it('refuses a loopback server in production mode that development mode reaches', async () => {
    const server = track(await startHttpsServer(hello));
    await expectRefused(
      guard({ mode: 'production', trustedCertificates: [testCertificate().cert] }).fetch(server.url('/')),
      'address_not_public',
    );
    expect(server.hits).toBe(0);
    await expect(developmentGuardFor(server).fetch(server.url('/'))).resolves.toMatchObject({ status: 200 });
  });

  it('refuses, in development mode, a loopback port that is not listed', async () => {
    const listed = track(await startHttpsServer(hello));
    const unlisted = track(await startHttpsServer(hello));
    await expectRefused(developmentGuardFor(listed).fetch(unlisted.url('/')), 'address_not_public');
    expect(unlisted.hits).toBe(0);
  });

  it('refuses to be built in production mode with development targets', () => {
    expect(
      () => new OutboundTargetGuard({ mode: 'production', developmentTargets: [{ host: '127.0.0.1', port: 8443 }] }),
    ).toThrow(TypeError);
  });
});

describe('OutboundTargetGuard: host names are checked on the resolved address', () => {
  it('refuses a host name that resolves to 127.0.0.1, without connecting', async () => {
    const server = track(await startHttpsServer(hello));
    const resolveHost = resolverFor({ 'evil.test': ['127.0.0.1'] });
    const target = server.url('/', 'evil.test');
    await expectRefused(
      guard({ mode: 'production', resolveHost, trustedCertificates: [testCertificate().cert] }).fetch(target),
      'address_not_public',
    );
    expect(server.hits).toBe(0);
  });

  it('reaches the same server through a listed development host name (positive control)', async () => {
    const server = track(await startHttpsServer(hello));
    const resolveHost = resolverFor({ 'tool.test': ['127.0.0.1'] });
    const checked = guard({
      mode: 'development',
      developmentTargets: [{ host: 'tool.test', port: server.port }],
      resolveHost,
      trustedCertificates: [testCertificate().cert],
    });
    await expect(checked.fetch(server.url('/', 'tool.test'))).resolves.toMatchObject({
      text: 'hello from the test server',
    });
  });

  it('refuses a host name when ANY of its addresses is not public', async () => {
    const resolveHost = resolverFor({ 'mixed.test': ['93.184.215.14', '10.0.0.5'] });
    await expectRefused(guard({ mode: 'production', resolveHost }).fetch('https://mixed.test/'), 'address_not_public');
  });

  it('refuses a listed development host name whose address is private rather than loopback', async () => {
    const resolveHost = resolverFor({ 'tool.test': ['10.0.0.5'] });
    const checked = guard({ mode: 'development', developmentTargets: [{ host: 'tool.test', port: 443 }], resolveHost });
    await expectRefused(checked.fetch('https://tool.test/'), 'address_not_public');
  });

  it('reports a name that does not resolve as unreachable', async () => {
    await expectRefused(
      guard({ mode: 'production', resolveHost: resolverFor({}) }).fetch('https://nowhere.test/'),
      'unreachable',
    );
  });
});

describe('OutboundTargetGuard: URL shape', () => {
  it('refuses credentials in the URL', async () => {
    const server = track(await startHttpsServer(hello));
    await expectRefused(
      developmentGuardFor(server).fetch(`https://user:pass@127.0.0.1:${server.port}/`),
      'credentials_in_url',
    );
    expect(server.hits).toBe(0);
  });

  it('refuses http in production mode', async () => {
    await expectRefused(guard({ mode: 'production' }).fetch('http://93.184.215.14/'), 'scheme_not_allowed');
  });

  it('refuses http to a development target unless http is explicitly allowed', async () => {
    const server = track(await startHttpServer(hello));
    await expectRefused(developmentGuardFor(server).fetch(server.url('/')), 'scheme_not_allowed');
    expect(server.hits).toBe(0);
  });

  it('accepts http to a development target when explicitly allowed (positive control)', async () => {
    const server = track(await startHttpServer(hello));
    const result = await developmentGuardFor(server, { allowHttpForDevelopmentTargets: true }).fetch(server.url('/'));
    expect(result.text).toBe('hello from the test server');
  });

  it.each(['ftp://93.184.215.14/', 'file:///etc/passwd', 'data:text/plain,hi'])(
    'refuses the scheme of %s',
    async (url) => {
      await expectRefused(guard({ mode: 'production' }).fetch(url), 'scheme_not_allowed');
    },
  );

  it('refuses a string that is not a URL', async () => {
    await expectRefused(guard({ mode: 'production' }).fetch('/relative/path'), 'invalid_url');
  });

  it('refuses a port outside allowedPorts and accepts the default port (positive control)', () => {
    const checked = guard({ mode: 'production', allowedPorts: [443] });
    expect(() => checked.policy.checkUrl('https://tool.example:8443/')).toThrow(OutboundTargetRefused);
    expect(checked.policy.checkUrl('https://tool.example/').host).toBe('tool.example');
  });
});

describe('OutboundTargetGuard: redirects and status', () => {
  it('refuses a 302 without following it', async () => {
    const destination = track(await startHttpsServer(hello));
    const server = track(
      await startHttpsServer((request, response) => {
        if (request.url === '/moved') response.writeHead(302, { location: destination.url('/') }).end();
        else hello(request, response);
      }),
    );
    const checked = guard({
      mode: 'development',
      developmentTargets: [
        { host: '127.0.0.1', port: server.port },
        { host: '127.0.0.1', port: destination.port },
      ],
      trustedCertificates: [testCertificate().cert],
    });
    const error = await expectRefused(checked.fetch(server.url('/moved')), 'redirect_refused');
    expect(error.status).toBe(302);
    expect(destination.hits).toBe(0);
    await expect(checked.fetch(server.url('/'))).resolves.toMatchObject({ status: 200 });
  });

  it('refuses a non-2xx status without putting the body in the error', async () => {
    const server = track(
      await startHttpsServer((_request, response) => response.writeHead(500).end('SECRET-INTERNAL-DETAIL')),
    );
    const error = await expectRefused(developmentGuardFor(server).fetch(server.url('/')), 'bad_status');
    expect(error.status).toBe(500);
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain('SECRET-INTERNAL-DETAIL');
  });

  it('accepts a status the caller declares acceptable (positive control)', async () => {
    const server = track(await startHttpsServer((_request, response) => response.writeHead(404).end('missing')));
    const result = await developmentGuardFor(server).fetch(server.url('/'), {
      acceptStatus: (status) => status === 404,
    });
    expect(result).toMatchObject({ status: 404, text: 'missing' });
  });
});

describe('OutboundTargetGuard: size bound', () => {
  const limit = 4_096;

  it('accepts a body of exactly the limit (positive control)', async () => {
    const server = track(await startHttpsServer((_request, response) => response.end('a'.repeat(limit))));
    const result = await developmentGuardFor(server, { maxBytes: limit }).fetch(server.url('/'));
    expect(result.text).toHaveLength(limit);
  });

  it('refuses a declared Content-Length above the limit before reading the body', async () => {
    // Declares a large body but sends a little and holds on: only the declared check can refuse this promptly.
    const server = track(
      await startHttpsServer((_request, response) => {
        response.writeHead(200, { 'content-length': String(limit * 10) });
        response.write('SECRET-START');
      }),
    );
    const error = await expectRefused(
      developmentGuardFor(server, { maxBytes: limit, totalTimeoutMs: 5_000 }).fetch(server.url('/')),
      'too_large',
    );
    expect(error.message).not.toContain('SECRET');
  });

  it('refuses a body without Content-Length that streams past the limit', async () => {
    const server = track(await startHttpsServer((_request, response) => response.end('b'.repeat(limit + 1))));
    await expectRefused(developmentGuardFor(server, { maxBytes: limit }).fetch(server.url('/')), 'too_large');
  });

  it('refuses an endless chunked body as soon as it passes the limit', async () => {
    const server = track(
      await startHttpsServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'c'.repeat(512);
        const pump = () => {
          while (!response.destroyed && response.write(chunk)) {
            // keep writing until the socket pushes back
          }
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
      }),
    );
    await expectRefused(
      developmentGuardFor(server, { maxBytes: limit, totalTimeoutMs: 5_000 }).fetch(server.url('/')),
      'too_large',
    );
  });

  it('lets a request tighten the limit but never loosen it', async () => {
    const server = track(await startHttpsServer((_request, response) => response.end('d'.repeat(2_000))));
    const checked = developmentGuardFor(server, { maxBytes: limit });
    await expectRefused(checked.fetch(server.url('/'), { maxBytes: 1_000 }), 'too_large');
    await expect(checked.fetch(server.url('/'), { maxBytes: 1_000_000 })).resolves.toMatchObject({ status: 200 });
    const big = track(await startHttpsServer((_request, response) => response.end('e'.repeat(limit * 2))));
    await expectRefused(
      developmentGuardFor(big, { maxBytes: limit }).fetch(big.url('/'), { maxBytes: 1_000_000 }),
      'too_large',
    );
  });
});

describe('OutboundTargetGuard: time bound', () => {
  it('times out a server that accepts the request and never answers', async () => {
    const server = track(await startHttpsServer(() => undefined));
    const started = Date.now();
    await expectRefused(developmentGuardFor(server, { totalTimeoutMs: 300 }).fetch(server.url('/')), 'timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(server.hits).toBe(1);
  });

  it('times out a server that sends headers and then stalls the body', async () => {
    const server = track(
      await startHttpsServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      }),
    );
    await expectRefused(developmentGuardFor(server, { totalTimeoutMs: 300 }).fetch(server.url('/')), 'timeout');
  });

  it('times out a connection whose TLS handshake never completes', async () => {
    const server = track(await startSilentTcpServer());
    await expectRefused(
      developmentGuardFor(server, { connectTimeoutMs: 200, totalTimeoutMs: 5_000 }).fetch(server.url('/')),
      'timeout',
    );
    expect(server.hits).toBe(1);
  });

  it('answers within a per-request timeout when the server is prompt (positive control)', async () => {
    const server = track(await startHttpsServer(hello));
    await expect(developmentGuardFor(server).fetch(server.url('/'), { timeoutMs: 2_000 })).resolves.toMatchObject({
      status: 200,
    });
  });

  it('rethrows the caller’s own abort instead of reporting a timeout', async () => {
    const server = track(await startHttpsServer(() => undefined));
    const controller = new AbortController();
    const pending = developmentGuardFor(server).fetch(server.url('/'), { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });
});

describe('OutboundTargetGuard: transport', () => {
  it('keeps certificate verification on: an untrusted self-signed server is unreachable', async () => {
    const server = track(await startHttpsServer(hello));
    const untrusting = guard({ mode: 'development', developmentTargets: [{ host: '127.0.0.1', port: server.port }] });
    await expectRefused(untrusting.fetch(server.url('/')), 'unreachable');
  });

  it('reports a closed port as unreachable', async () => {
    const server = await startHttpsServer(hello);
    const checked = developmentGuardFor(server);
    await server.close();
    await expectRefused(checked.fetch(server.url('/')), 'unreachable');
  });
});
