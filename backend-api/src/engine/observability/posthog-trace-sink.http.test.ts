// The real posthog-node client against a local HTTP server standing in for PostHog (`POSTHOG_HOST`).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { validateSaaSConfig } from '@wildo/shared-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { validConfigFixture } from '../config/config.fixtures.js';
import { buildRuntimeConfiguration } from '../config/runtime-configuration.build.js';
import { createTraceSink } from './create-trace-sink.js';
import { EMBEDDING_VECTORS, embeddingTrace, generationTrace, recordingLogger } from './observability.fixtures.js';
import { createPostHogClient } from './posthog-trace-sink.js';

interface ReceivedRequest {
  method: string;
  path: string;
  body: unknown;
}

interface BatchBody {
  api_key: string;
  batch: { event: string; distinct_id: string; properties: Record<string, unknown> }[];
}

async function startStandIn(status = 200): Promise<{ url: string; requests: ReceivedRequest[]; server: Server }> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: text ? JSON.parse(text) : undefined });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify(status === 200 ? { status: 1 } : { error: 'down' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function runtime() {
  const result = validateSaaSConfig(validConfigFixture());
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildRuntimeConfiguration(result.config);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('PostHogTraceSink with posthog-node against a local stand-in', () => {
  it('delivers one batch with the generation and the embedding, without content or vectors', async () => {
    const standIn = await startStandIn();
    servers.push(standIn.server);
    const logger = recordingLogger();
    const sink = await createTraceSink(
      runtime(),
      { POSTHOG_PROJECT_API_KEY: 'phc_local_test', POSTHOG_HOST: standIn.url },
      logger,
    );
    expect(sink.children.map((c) => c.name)).toEqual(['logger', 'posthog']);

    await sink.emit(generationTrace());
    await sink.emit(embeddingTrace());
    await sink.shutdown();

    const batches = standIn.requests.filter((r) => r.path.startsWith('/batch'));
    expect(standIn.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /batch/']);
    const body = batches[0]?.body as BatchBody;
    expect(body.api_key).toBe('phc_local_test');
    expect(body.batch.map((e) => e.event)).toEqual(['$ai_generation', '$ai_embedding']);
    const [generation, embedding] = body.batch;
    expect(generation).toMatchObject({
      distinct_id: 'user-42',
      properties: {
        $ai_trace_id: 'trace-1',
        $ai_model: 'claude-sonnet-5',
        $ai_provider: 'anthropic',
        $ai_input_tokens: 120,
        $ai_output_tokens: 30,
        $ai_latency: 1.5,
        $ai_is_error: false,
        wildo_outcome: 'success',
        $geoip_disable: true,
      },
    });
    expect(generation?.properties).not.toHaveProperty('$ai_input');
    expect(generation?.properties).not.toHaveProperty('$ai_output_choices');
    expect(embedding?.properties).toMatchObject({
      wildo_embedding_count: 2,
      wildo_embedding_dims: 8,
      $ai_input_tokens: 12,
    });
    const wire = JSON.stringify(body);
    expect(wire).not.toContain('SECRET');
    for (const vector of EMBEDDING_VECTORS) for (const value of vector) expect(wire).not.toContain(String(value));
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('a PostHog that answers 503 fails neither emit nor flush; the failure is logged', async () => {
    const standIn = await startStandIn(503);
    servers.push(standIn.server);
    const logger = recordingLogger();
    const sink = await createTraceSink(
      runtime(),
      { POSTHOG_PROJECT_API_KEY: 'phc_local_test', POSTHOG_HOST: standIn.url },
      logger,
      {
        createPostHogClient: (options) => createPostHogClient({ ...options, fetchRetryCount: 0, fetchRetryDelayMs: 1 }),
      },
    );
    await expect(sink.emit(generationTrace())).resolves.toBeUndefined();
    await expect(sink.flush()).resolves.toBeUndefined();
    await expect(sink.shutdown()).resolves.toBeUndefined();
    expect(standIn.requests.some((r) => r.path.startsWith('/batch'))).toBe(true);
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings.map((l) => l.message)).toContain('PostHog delivery failed');
    expect(warnings).toContainEqual({
      level: 'warn',
      message: 'a trace sink failed; the model call is not affected',
      fields: { sink: 'posthog', step: 'flush', error: expect.stringContaining('status=503') },
    });
    expect(JSON.stringify(logger.lines)).not.toContain('phc_local_test');
  });
});
