import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred } from '../../testing/llm-stubs/index.js';
import { EventStreams } from '../routing/index.js';
import { createHealthRouter } from './health.routes.js';
import { SHUTDOWN_STREAM_EVENT, ServingState } from './serving-state.js';

// The drain on a real listener: readiness, a stream that finishes by itself, one ended at the bound, a request in
// flight answered, and new streams refused.

const database = { checkHealth: () => Promise.resolve(true) };
let server: Server | undefined;

afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function serve(finish: Promise<void>) {
  const serving = new ServingState();
  const streams = new EventStreams();
  serving.attachStreams(streams);
  const app = express();
  app.use(serving.middleware);
  app.use(createHealthRouter(database, serving));
  app.get('/stream', (_req, res) => {
    const release = streams.acquire('someone');
    res.once('close', release);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: started\ndata: {}\n\n');
    streams.keepAlive(res, () => undefined);
  });
  app.get('/slow', (_req, res) => void finish.then(() => res.json({ done: true })));
  server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { serving, streams, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('ServingState', () => {
  it('reports draining, answers the request in flight, ends the open stream with a shutdown event at the bound', async () => {
    const slow = deferred();
    const { serving, streams, url } = await serve(slow.promise);
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    const stream = await fetch(`${url}/stream`);
    const inFlight = fetch(`${url}/slow`);
    while (serving.requestsInFlight < 2) await new Promise((resolve) => setImmediate(resolve));

    const drained = serving.drain([server as Server], 300);
    expect(serving.draining).toBe(true);
    expect(() => streams.acquire('another')).toThrow('shutting down');
    slow.resolve();
    expect(await (await inFlight).json()).toEqual({ done: true });
    const text = await stream.text();
    expect(text.trim().split('\n\n').at(-1)).toBe(
      `event: ${SHUTDOWN_STREAM_EVENT}\ndata: {"reason":"server_shutting_down","retryAfterSeconds":1}`,
    );
    expect(await drained).toMatchObject({ streamsEnded: 1, requestsCut: 0 });
    await expect(fetch(`${url}/health/ready`)).rejects.toThrow();
  });

  it('finishes at once when nothing is in flight, and readiness says draining to a request already inside', async () => {
    const { serving } = await serve(Promise.resolve());
    const outcome = await serving.drain([server as Server], 5_000);
    expect(outcome).toMatchObject({ streamsEnded: 0, requestsCut: 0 });
    expect(outcome.durationMs).toBeLessThan(5_000);
    // The app itself (a request that reached it before the listener closed) answers readiness with `draining`.
    const app = express().use(createHealthRouter(database, serving));
    const probe = createServer(app).listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const answer = await fetch(`http://127.0.0.1:${(probe.address() as AddressInfo).port}/health/ready`);
    probe.close();
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as { data: unknown }).data).toMatchObject({ status: 'draining' });
  });
});
