import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The OAuth client's redirect URI: a loopback HTTP server that records every authorization response it gets. */
export interface LoopbackCallback {
  /** `http://127.0.0.1:<port>/callback`, registered as the client's redirect URI. */
  redirectUri: string;
  /** Every URL `/callback` was called with, in order (as the client would rebuild it from its request). */
  received: URL[];
  /** The next URL `/callback` is called with (resolves at once if one arrived since the last call). */
  nextCallback(timeoutMs?: number): Promise<URL>;
  close(): Promise<void>;
}

/** Starts the callback server on 127.0.0.1 (loopback http redirect URIs are allowed by the backend). */
export async function startLoopbackCallback(): Promise<LoopbackCallback> {
  const received: URL[] = [];
  let consumed = 0;
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    received.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end('<!doctype html><title>Loopback client</title><p>Authorization response received.</p>');
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  const nextCallback = async (timeoutMs = 15_000): Promise<URL> => {
    if (received.length <= consumed) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no authorization response reached the callback within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return received[consumed++] as URL;
  };

  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    nextCallback,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
