import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running credential-injecting proxy. */
export interface TokenProxy {
  /** `http://127.0.0.1:<port><path>`: what the conformance suite is pointed at. */
  url: string;
  /** Requests forwarded so far. */
  readonly forwarded: number;
  close(): Promise<void>;
}

/** Options of {@link startTokenProxy}. */
export interface TokenProxyOptions {
  /** The protected endpoint, e.g. `http://127.0.0.1:4100/api/v1/mcp`; the proxy serves the same path. */
  target: string;
  /** The `Authorization` value added to every request (an API key or `Bearer <token>`). */
  authorization: string;
}

/**
 * A reverse proxy in front of one MCP endpoint that adds a credential to every request. The MCP conformance
 * suite's server scenarios cannot send credentials, and our endpoint answers `tools/list` and `tools/call`
 * with 401 without one, so the suite talks to this proxy instead.
 *
 * Everything else passes through untouched, byte for byte and streamed both ways: method, path, every
 * request header including `Host` and `Origin` (so the endpoint's own DNS-rebinding check still sees what the
 * suite sent), status, response headers and SSE bodies as they are produced.
 */
export async function startTokenProxy(options: TokenProxyOptions): Promise<TokenProxy> {
  const target = new URL(options.target);
  let forwarded = 0;
  const server: Server = createServer((incoming: IncomingMessage, outgoing) => {
    forwarded += 1;
    const headers = { ...incoming.headers, authorization: options.authorization };
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: target.pathname + (incoming.url?.replace(/^[^?]*/, '') ?? ''),
        headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
      outgoing.end(
        JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'proxy: upstream failed' } }),
      );
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
