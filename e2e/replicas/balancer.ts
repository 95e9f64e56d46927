import { once } from 'node:events';
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback round-robin HTTP load balancer for the replicas lane: each request goes to the next upstream in turn,
 * request and response streamed through (SSE included), over keep-alive connections. An upstream that refuses or
 * drops a connection is answered with 502 (never retried: a POST may have been applied) and skipped until it is
 * set again. `setUpstreams` changes the pool between load phases (1, 2, 3 replicas).
 */
export class RoundRobinBalancer {
  private upstreams: string[] = [];
  private next = 0;
  private server: Server | undefined;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  /** Requests answered 502 because their upstream failed (a replica killed, restarting). */
  failedUpstream = 0;

  /** Serves from now on through `urls` (`http://127.0.0.1:port`), in turn. */
  setUpstreams(urls: readonly string[]): void {
    this.upstreams = [...urls];
    this.next = 0;
  }

  /** Stops sending to `url` (a replica known to be down). */
  remove(url: string): void {
    this.upstreams = this.upstreams.filter((upstream) => upstream !== url);
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => this.forward(req, res));
    this.server.keepAliveTimeout = 30_000;
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.agent.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    const upstream = this.upstreams[this.next++ % Math.max(1, this.upstreams.length)];
    if (!upstream)
      return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"no upstream"}');
    const target = new URL(req.url ?? '/', upstream);
    const proxied = request(
      target,
      // The client's Host goes through, as behind a real balancer: the replicas serve the public URL.
      { method: req.method, headers: req.headers, agent: this.agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => {
      this.failedUpstream += 1;
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"upstream failed"}');
      else res.destroy();
    });
    req.pipe(proxied);
  }
}
