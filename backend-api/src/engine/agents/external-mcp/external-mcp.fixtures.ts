// Test fixtures of the external MCP tests: a real MCP server (official SDK, Streamable HTTP) served in-process on
// 127.0.0.1, and a URL on which nothing listens.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** One `tools/call` the server ran. */
export interface WeatherCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * An external MCP server exposing `lookup_weather` (`{ city }` → a text forecast), stateless: one SDK server and
 * transport per HTTP request, JSON responses. With `authorization`, requests without exactly that header are
 * answered 401. It records the calls it ran and the headers of every request.
 */
export class WeatherMcpServer {
  /** Tool calls that ran here, in order. */
  readonly calls: WeatherCall[] = [];
  /** Headers of every HTTP request received (discovery and calls). */
  readonly requestHeaders: IncomingHttpHeaders[] = [];
  #server: Server | undefined;
  #url = '';

  constructor(private readonly options: { authorization?: string } = {}) {}

  /** The Streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  get url(): string {
    return this.#url;
  }

  /** The forecast the tool answers for a city. */
  static forecast(city: string): string {
    return `Sunny and 21 °C in ${city}.`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.requestHeaders.push(req.headers);
      // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
      if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/mcp') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      if (this.options.authorization !== undefined && req.headers.authorization !== this.options.authorization) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
        return;
      }
      const mcp = this.#build();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      mcp
        .connect(transport)
        .then(() => transport.handleRequest(req, res))
        .catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    return this;
  }

  /** Forgets recorded calls and headers. */
  reset(): void {
    this.calls.length = 0;
    this.requestHeaders.length = 0;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  #build(): McpServer {
    const mcp = new McpServer({ name: 'weather-test-server', version: '1.0.0' });
    mcp.registerTool(
      'lookup_weather',
      { description: 'Current weather of a city.', inputSchema: { city: z.string().min(1) } },
      async ({ city }) => {
        this.calls.push({ tool: 'lookup_weather', args: { city } });
        return { content: [{ type: 'text', text: WeatherMcpServer.forecast(city) }] };
      },
    );
    return mcp;
  }
}

/** A URL on 127.0.0.1 whose port was just closed: connections to it are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}
