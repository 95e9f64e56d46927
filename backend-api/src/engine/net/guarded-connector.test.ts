import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedConnector } from './guarded-connector.js';
import { OutboundTargetRefused } from './outbound-target.errors.js';
import { OutboundTargetPolicy } from './outbound-target.policy.js';
import { startHttpsServer, testCertificate, type LocalServer } from './test-support/local-servers.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function connect(policy: OutboundTargetPolicy, hostname: string, port: number): Promise<Socket> {
  const connector = createGuardedConnector({
    policy,
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
    connectTimeoutMs: 2_000,
    trustedCertificates: [testCertificate().cert],
  });
  return new Promise((resolve, reject) => {
    connector({ hostname, protocol: 'https:', port: String(port) }, (error, socket) =>
      error ? reject(error) : resolve(socket as Socket),
    );
  });
}

// The URL check refuses literals first; these prove the connector refuses them on its own as well.
describe('createGuardedConnector', () => {
  it('refuses a loopback literal even when called directly, without a URL check', async () => {
    server = await startHttpsServer((_request, response) => response.end());
    const error = await connect(new OutboundTargetPolicy({ mode: 'production' }), '127.0.0.1', server.port).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutboundTargetRefused);
    expect((error as OutboundTargetRefused).reason).toBe('address_not_public');
  });

  it('refuses a bracketed IPv6 loopback literal', async () => {
    const error = await connect(new OutboundTargetPolicy({ mode: 'production' }), '[::1]', 443).catch(
      (caught: unknown) => caught,
    );
    expect((error as OutboundTargetRefused).reason).toBe('address_not_public');
  });

  it('connects to a listed development target (positive control)', async () => {
    server = await startHttpsServer((_request, response) => response.end());
    const policy = new OutboundTargetPolicy({
      mode: 'development',
      developmentTargets: [{ host: '127.0.0.1', port: server.port }],
    });
    const socket = await connect(policy, '127.0.0.1', server.port);
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });

  it('checks host names through the resolver and refuses a loopback answer in production', async () => {
    const error = await connect(new OutboundTargetPolicy({ mode: 'production' }), 'rebind.test', 443).catch(
      (caught: unknown) => caught,
    );
    expect((error as OutboundTargetRefused).reason).toBe('address_not_public');
  });
});
