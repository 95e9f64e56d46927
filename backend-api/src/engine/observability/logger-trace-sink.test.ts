import { Writable } from 'node:stream';
import { AgentTraceabilityLevel } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/index.js';
import { AGENT_CALL_TRACE_LOG_MESSAGE, LoggerTraceSink } from './logger-trace-sink.js';
import { embeddingTrace, generationTrace, recordingLogger } from './observability.fixtures.js';

describe('LoggerTraceSink', () => {
  it('logs the metadata of a call and no content at METADATA', () => {
    const logger = recordingLogger();
    new LoggerTraceSink(logger).emit(generationTrace());
    expect(logger.lines).toHaveLength(1);
    const [line] = logger.lines;
    expect(line?.message).toBe(AGENT_CALL_TRACE_LOG_MESSAGE);
    expect(line?.fields).toEqual({
      agentRef: 'ticket-triage',
      providerRef: 'anthropic',
      model: 'claude-sonnet-5',
      operationKey: 'CHAT_COMPLETION',
      outcome: 'success',
      attempt: 1,
      usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
      executionTimeMs: 1_500,
      finishReason: 'stop',
      traceId: 'trace-1',
      attributes: { userId: 'user-42', conversationId: 'conv-7' },
    });
    expect(JSON.stringify(line)).not.toContain('SECRET');
  });

  it('logs the error of a failed call', () => {
    const logger = recordingLogger();
    new LoggerTraceSink(logger).emit(
      generationTrace({
        outcome: 'error',
        attempt: 2,
        error: { name: 'ProviderCallError', message: 'overloaded' },
        context: { executionTime: 40 },
      }),
    );
    expect(logger.lines[0]?.fields).toMatchObject({
      outcome: 'error',
      attempt: 2,
      executionTimeMs: 40,
      error: { name: 'ProviderCallError', message: 'overloaded' },
    });
    expect(logger.lines[0]?.fields).not.toHaveProperty('usage');
  });

  it('adds input and output only at DEBUG_VERBOSE', () => {
    const logger = recordingLogger();
    new LoggerTraceSink(logger).emit(generationTrace({ traceability: AgentTraceabilityLevel.DEBUG_VERBOSE }));
    expect(logger.lines[0]?.fields).toMatchObject({
      input: [{ role: 'user', content: 'SECRET-PROMPT: my card number is 4111' }],
      output: 'SECRET-COMPLETION: noted',
    });
  });

  it('summarizes vectors and base64 even at DEBUG_VERBOSE', () => {
    const logger = recordingLogger();
    const vectors = [Array.from({ length: 1_536 }, () => 0.5)];
    new LoggerTraceSink(logger).emit(
      embeddingTrace({ traceability: AgentTraceabilityLevel.DEBUG_VERBOSE, output: { vectors } }),
    );
    new LoggerTraceSink(logger).emit(
      generationTrace({
        traceability: AgentTraceabilityLevel.DEBUG_VERBOSE,
        output: { images: [{ base64: 'A'.repeat(5_000), mediaType: 'image/png' }] },
      }),
    );
    expect(logger.lines[0]?.fields.output).toEqual({ vectors: ['[vector omitted: 1536 numbers]'] });
    expect(logger.lines[0]?.fields).toMatchObject({ embeddingCount: 2, embeddingDims: 8 });
    expect(logger.lines[1]?.fields.output).toEqual({
      images: [{ base64: '[base64 omitted: 5000 chars]', mediaType: 'image/png' }],
    });
  });

  it('writes one JSON line through the engine logger, content-free at METADATA', () => {
    const chunks: string[] = [];
    const destination = new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) });
    new LoggerTraceSink(createLogger({ destination })).emit(generationTrace());
    const line = JSON.parse(chunks.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: AGENT_CALL_TRACE_LOG_MESSAGE,
      agentRef: 'ticket-triage',
      outcome: 'success',
      executionTimeMs: 1_500,
    });
    expect(line).not.toHaveProperty('input');
    expect(line).not.toHaveProperty('output');
  });
});
