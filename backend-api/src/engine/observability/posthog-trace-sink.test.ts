import { describe, expect, it } from 'vitest';
import {
  EMBEDDING_VECTORS,
  embeddingTrace,
  FakePostHogClient,
  generationTrace,
  recordingLogger,
} from './observability.fixtures.js';
import { POSTHOG_ANONYMOUS_DISTINCT_ID, PostHogTraceSink, type PostHogTraceSinkOptions } from './posthog-trace-sink.js';

function sinkWith(options: Partial<PostHogTraceSinkOptions> = {}) {
  const client = new FakePostHogClient();
  const logger = recordingLogger();
  const sink = new PostHogTraceSink({ client, logger, ...options });
  return { client, logger, sink };
}

describe('PostHogTraceSink: generations', () => {
  it('builds an $ai_generation with model, provider, tokens, latency and outcome, without content by default', () => {
    const { client, sink } = sinkWith();
    expect(sink.captureContent).toBe(false);
    sink.emit(generationTrace());
    expect(client.events).toHaveLength(1);
    const event = client.events[0]!;
    expect(event).toEqual({
      distinctId: 'user-42',
      event: '$ai_generation',
      timestamp: new Date('2026-03-01T12:00:00.000Z'),
      properties: {
        userId: 'user-42',
        conversationId: 'conv-7',
        $ai_trace_id: 'trace-1',
        $ai_span_name: 'ticket-triage',
        $ai_model: 'claude-sonnet-5',
        $ai_provider: 'anthropic',
        $ai_is_error: false,
        $ai_latency: 1.5,
        $ai_input_tokens: 120,
        $ai_output_tokens: 30,
        wildo_total_tokens: 150,
        wildo_agent_ref: 'ticket-triage',
        wildo_operation_key: 'CHAT_COMPLETION',
        wildo_outcome: 'success',
        wildo_attempt: 1,
        wildo_finish_reason: 'stop',
      },
    });
    expect(JSON.stringify(client.events)).not.toContain('SECRET');
  });

  it('captures prompt and completion only when captureContent is on', () => {
    const { client, sink } = sinkWith({ captureContent: true });
    sink.emit(generationTrace());
    expect(client.events[0]?.properties).toMatchObject({
      $ai_input: [{ role: 'user', content: 'SECRET-PROMPT: my card number is 4111' }],
      $ai_output_choices: [{ role: 'assistant', content: 'SECRET-COMPLETION: noted' }],
    });
  });

  it('summarizes generated image bytes even with captureContent', () => {
    const { client, sink } = sinkWith({ captureContent: true });
    sink.emit(
      generationTrace({
        operationKey: 'GENERATE_IMAGE',
        output: { images: [{ base64: 'iVBOR'.repeat(2_000), mediaType: 'image/png' }] },
      }),
    );
    expect(client.events[0]?.properties.$ai_output_choices).toEqual([
      { role: 'assistant', content: { images: [{ base64: '[base64 omitted: 10000 chars]', mediaType: 'image/png' }] } },
    ]);
  });

  it('reports a failed call as an error with its message', () => {
    const { client, sink } = sinkWith();
    sink.emit(
      generationTrace({
        outcome: 'error',
        attempt: 2,
        context: { executionTime: 250 },
        error: { name: 'ProviderCallError', message: 'rate limited' },
      }),
    );
    expect(client.events[0]?.properties).toMatchObject({
      $ai_is_error: true,
      $ai_error: 'ProviderCallError: rate limited',
      wildo_outcome: 'error',
      wildo_attempt: 2,
      $ai_latency: 0.25,
    });
    expect(client.events[0]?.properties).not.toHaveProperty('$ai_input_tokens');
  });

  it('uses an anonymous distinct id without a person profile when the trace names nobody', () => {
    const { client, sink } = sinkWith();
    sink.emit(generationTrace({ traceContext: { attributes: { conversationId: 'c' } } }));
    sink.emit(generationTrace({ traceContext: { attributes: { organizationId: 'org-9' } } }));
    expect(client.events[0]?.distinctId).toBe(POSTHOG_ANONYMOUS_DISTINCT_ID);
    expect(client.events[0]?.properties.$process_person_profile).toBe(false);
    expect(client.events[0]?.properties.$ai_trace_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.events[1]?.distinctId).toBe('org-9');
    expect(client.events[1]?.properties).not.toHaveProperty('$process_person_profile');
  });

  it('does not let trace attributes set PostHog properties', () => {
    const { client, sink } = sinkWith();
    sink.emit(
      generationTrace({
        traceContext: {
          traceId: 't',
          attributes: { $ai_model: 'forged', $set: 'x', wildo_outcome: 'forged', plan: 'team' },
        },
      }),
    );
    expect(client.events[0]?.properties).toMatchObject({
      $ai_model: 'claude-sonnet-5',
      wildo_outcome: 'success',
      plan: 'team',
    });
    expect(client.events[0]?.properties).not.toHaveProperty('$set');
  });
});

describe('PostHogTraceSink: embeddings', () => {
  it('sends an $ai_embedding with input count and dimensions, never the vectors', () => {
    const { client, sink } = sinkWith();
    sink.emit(embeddingTrace());
    const event = client.events[0]!;
    expect(event.event).toBe('$ai_embedding');
    expect(event.properties).toMatchObject({
      $ai_model: 'text-embedding-3-small',
      $ai_provider: 'openai',
      $ai_input_tokens: 12,
      $ai_latency: 0.08,
      wildo_embedding_count: 2,
      wildo_embedding_dims: 8,
    });
    expect(event.properties).not.toHaveProperty('$ai_output_choices');
    expect(event.properties).not.toHaveProperty('$ai_output_tokens');
    expect(event.properties).not.toHaveProperty('$ai_input');
  });

  it('sends the embedded texts but still no vectors when captureContent is on', () => {
    const { client, sink } = sinkWith({ captureContent: true });
    sink.emit(embeddingTrace());
    sink.emit(embeddingTrace({ context: { executionTime: 5 }, input: { texts: ['only text'], purpose: 'QUERY' } }));
    expect(client.events[0]?.properties.$ai_input).toEqual(['first passage', 'second passage']);
    expect(client.events[1]?.properties).toMatchObject({ $ai_input: ['only text'], wildo_embedding_count: 1 });
    const sent = JSON.stringify(client.events);
    for (const vector of EMBEDDING_VECTORS) for (const value of vector) expect(sent).not.toContain(String(value));
    expect(sent).not.toContain('vectors');
  });
});

describe('PostHogTraceSink: sampling', () => {
  it('sends nothing at sample rate 0, with or without a trace id', () => {
    // The lowest draw there is: it would be sent at any rate above 0.
    const { client, sink } = sinkWith({ sampleRate: 0, random: () => 0 });
    for (let i = 0; i < 50; i++) {
      sink.emit(generationTrace({ traceContext: { traceId: `t-${i}` } }));
      sink.emit(generationTrace({ traceContext: {} }));
      sink.emit(embeddingTrace({ traceContext: {} }));
    }
    expect(client.events).toEqual([]);
  });

  it('sends every call at sample rate 1', () => {
    const { client, sink } = sinkWith({ sampleRate: 1, random: () => 0.999_999 });
    for (let i = 0; i < 20; i++) sink.emit(generationTrace({ traceContext: {} }));
    expect(client.events).toHaveLength(20);
  });

  it('draws from the injected random source for calls without a trace id', () => {
    const draws = [0.1, 0.9, 0.49, 0.5];
    const { client, sink } = sinkWith({ sampleRate: 0.5, random: () => draws.shift() ?? 1 });
    for (let i = 0; i < 4; i++) sink.emit(generationTrace({ agentRef: `a${i}`, traceContext: {} }));
    expect(client.events.map((e) => e.properties.wildo_agent_ref)).toEqual(['a0', 'a2']);
  });

  it('keeps or drops all calls of one trace together, about the configured share overall', () => {
    const { client, sink } = sinkWith({ sampleRate: 0.3 });
    const kept = new Map<string, number>();
    for (let t = 0; t < 1_000; t++) {
      for (let call = 0; call < 3; call++) sink.emit(generationTrace({ traceContext: { traceId: `trace-${t}` } }));
    }
    for (const event of client.events)
      kept.set(String(event.properties.$ai_trace_id), (kept.get(String(event.properties.$ai_trace_id)) ?? 0) + 1);
    expect([...kept.values()].every((count) => count === 3)).toBe(true);
    expect(kept.size).toBeGreaterThan(240);
    expect(kept.size).toBeLessThan(360);
  });

  it('clamps rates outside 0..1', () => {
    expect(sinkWith({ sampleRate: 7 }).sink.sampleRate).toBe(1);
    expect(sinkWith({ sampleRate: -1 }).sink.sampleRate).toBe(0);
    expect(sinkWith({ sampleRate: Number.NaN }).sink.sampleRate).toBe(0);
  });
});

describe('PostHogTraceSink: failures and lifecycle', () => {
  it('logs a client that throws instead of throwing into the model call', () => {
    const { client, logger, sink } = sinkWith();
    client.failCapture = new Error('queue full');
    expect(() => sink.emit(generationTrace())).not.toThrow();
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: 'the PostHog trace sink could not record a model call',
        fields: { agentRef: 'ticket-triage', error: 'Error: queue full' },
      },
    ]);
  });

  it('shuts the client down once and sends nothing afterwards', async () => {
    const { client, sink } = sinkWith();
    await Promise.all([sink.shutdown(), sink.shutdown()]);
    sink.emit(generationTrace());
    expect(client.shutdowns).toBe(1);
    expect(client.events).toEqual([]);
  });
});
