// Test-only helpers: a throwaway self-signed certificate and local servers on port 0.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PEM key and self-signed certificate; the certificate is also the CA a client must trust. */
export interface TestCertificate {
  key: string;
  cert: string;
}

/** Names the test certificate is valid for. */
export const TEST_CERTIFICATE_NAMES = [
  'localhost',
  'tool.test',
  'other.test',
  'tool.example',
  '127.0.0.1',
  '::1',
] as const;

let cached: TestCertificate | undefined;

/** Generates (once per process) a short-lived self-signed certificate with `openssl`. */
export function testCertificate(): TestCertificate {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'wildo-net-test-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    const san = TEST_CERTIFICATE_NAMES.map((name) =>
      name.includes(':') || /^\d/.test(name) ? `IP:${name}` : `DNS:${name}`,
    ).join(',');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=wildo-test',
        '-addext',
        `subjectAltName=${san}`,
        '-keyout',
        keyPath,
        '-out',
        certPath,
      ],
      { stdio: 'ignore' },
    );
    cached = { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A running local server. */
export interface LocalServer {
  port: number;
  /** Requests received so far. */
  readonly hits: number;
  /** `scheme://host:port/path` for this server. */
  url(path: string, host?: string): string;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Starts an HTTPS server on 127.0.0.1 with the {@link testCertificate}. */
export function startHttpsServer(handler: Handler): Promise<LocalServer> {
  return listen(createHttpsServer(testCertificate(), handler), 'https');
}

/** Starts a plain HTTP server on 127.0.0.1. */
export function startHttpServer(handler: Handler): Promise<LocalServer> {
  return listen(createHttpServer(handler), 'http');
}

async function listen(server: Server, scheme: 'http' | 'https'): Promise<LocalServer> {
  let hits = 0;
  server.on('request', () => void (hits += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get hits() {
      return hits;
    },
    url: (path, host = '127.0.0.1') => `${scheme}://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that accepts connections and never says anything (not even a TLS handshake). */
export async function startSilentTcpServer(): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  let hits = 0;
  const server = createTcpServer((socket) => {
    hits += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    get hits() {
      return hits;
    },
    url: (path, host = '127.0.0.1') => `https://${host}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
