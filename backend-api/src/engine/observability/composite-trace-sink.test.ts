import type { AgentCallTraceEmission } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { CompositeTraceSink } from './composite-trace-sink.js';
import { LoggerTraceSink } from './logger-trace-sink.js';
import { FakePostHogClient, generationTrace, recordingLogger } from './observability.fixtures.js';
import { PostHogTraceSink } from './posthog-trace-sink.js';
import type { AgentTraceSink } from './trace-sink.js';

/** A sink that records what reached it and can be told to fail each step, synchronously or not. */
class ScriptedSink implements AgentTraceSink {
  readonly received: AgentCallTraceEmission[] = [];
  flushed = 0;
  shutDown = 0;
  constructor(
    readonly name: string,
    private readonly failures: { emit?: 'throw' | 'reject'; flush?: boolean; shutdown?: boolean } = {},
    withShutdown = true,
  ) {
    if (!withShutdown) this.shutdown = undefined;
  }
  emit(trace: AgentCallTraceEmission): void | Promise<void> {
    this.received.push(trace);
    if (this.failures.emit === 'throw') throw new Error(`${this.name} emit threw`);
    if (this.failures.emit === 'reject') return Promise.reject(new Error(`${this.name} emit rejected`));
  }
  async flush(): Promise<void> {
    this.flushed += 1;
    if (this.failures.flush) throw new Error(`${this.name} flush failed`);
  }
  shutdown?: () => Promise<void> = async () => {
    this.shutDown += 1;
    if (this.failures.shutdown) throw new Error(`${this.name} shutdown failed`);
  };
}

describe('CompositeTraceSink', () => {
  it('fans a trace out to every child', async () => {
    const a = new ScriptedSink('a');
    const b = new ScriptedSink('b');
    await new CompositeTraceSink([a, b], recordingLogger()).emit(generationTrace());
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
  });

  it('isolates a child that throws or rejects: emit resolves, the others still receive, the failure is logged', async () => {
    const logger = recordingLogger();
    const throwing = new ScriptedSink('throwing', { emit: 'throw' });
    const rejecting = new ScriptedSink('rejecting', { emit: 'reject' });
    const healthy = new ScriptedSink('healthy');
    const composite = new CompositeTraceSink([throwing, rejecting, healthy], logger);
    await expect(composite.emit(generationTrace())).resolves.toBeUndefined();
    expect(healthy.received).toHaveLength(1);
    expect(logger.lines.map((l) => [l.level, l.fields.sink, l.fields.step, l.fields.error])).toEqual([
      ['warn', 'throwing', 'emit', 'Error: throwing emit threw'],
      ['warn', 'rejecting', 'emit', 'Error: rejecting emit rejected'],
    ]);
  });

  it('a failing PostHog sink does not fail the caller', async () => {
    const logger = recordingLogger();
    const client = new FakePostHogClient();
    client.failCapture = new Error('PostHog queue exploded');
    client.failFlush = new Error('PostHog unreachable');
    const logLines = recordingLogger();
    const composite = new CompositeTraceSink(
      [new PostHogTraceSink({ client, logger }), new LoggerTraceSink(logLines)],
      logger,
    );
    await expect(composite.emit(generationTrace())).resolves.toBeUndefined();
    await expect(composite.flush()).resolves.toBeUndefined();
    await expect(composite.shutdown()).resolves.toBeUndefined();
    expect(logLines.lines.map((l) => l.message)).toEqual(['agent-call-trace']);
    expect(logger.lines.map((l) => l.fields.error)).toEqual([
      'Error: PostHog queue exploded',
      'Error: PostHog unreachable',
      'Error: PostHog unreachable',
    ]);
  });

  it('survives a logger that throws while reporting a failing child', async () => {
    const logger = recordingLogger();
    logger.warn = () => {
      throw new Error('log sink down');
    };
    const composite = new CompositeTraceSink([new ScriptedSink('bad', { emit: 'throw', flush: true })], logger);
    await expect(composite.emit(generationTrace())).resolves.toBeUndefined();
    await expect(composite.flush()).resolves.toBeUndefined();
  });

  it('flushes every child, also when one fails', async () => {
    const logger = recordingLogger();
    const first = new ScriptedSink('first', { flush: true });
    const second = new ScriptedSink('second');
    const third = new ScriptedSink('third', { flush: true });
    await expect(new CompositeTraceSink([first, second, third], logger).flush()).resolves.toBeUndefined();
    expect([first.flushed, second.flushed, third.flushed]).toEqual([1, 1, 1]);
    expect(logger.lines.map((l) => l.fields.sink)).toEqual(['first', 'third']);
  });

  it('shuts down every child on shutdown, flushing those without shutdown', async () => {
    const logger = recordingLogger();
    const failing = new ScriptedSink('failing', { shutdown: true });
    const plain = new ScriptedSink('plain', {}, false);
    const client = new FakePostHogClient();
    const posthog = new PostHogTraceSink({ client, logger });
    await expect(new CompositeTraceSink([failing, plain, posthog], logger).shutdown()).resolves.toBeUndefined();
    expect(failing.shutDown).toBe(1);
    expect(plain.flushed).toBe(1);
    expect(client.shutdowns).toBe(1);
    expect(client.flushes).toBe(1);
  });
});
