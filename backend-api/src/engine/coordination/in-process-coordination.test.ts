import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logging/index.js';
import { describeCoordinationContract } from './coordination.contract.js';
import { InProcessCoordination } from './in-process-coordination.js';

describeCoordinationContract('in-process', {
  open: (logger) => new InProcessCoordination({ logger }),
  sharedAcrossInstances: false,
});

/** A clock the test moves by hand. */
function manualClock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('InProcessCoordination with an injected clock', () => {
  it('reopens a window exactly `durationMs` after its first charge', async () => {
    const clock = manualClock();
    const coordination = new InProcessCoordination({ logger: createSilentLogger(), clock: clock.now });
    const policy = { points: 1, durationMs: 1_000 };
    await coordination.consume('k', policy);
    clock.advance(999);
    expect(await coordination.consume('k', policy)).toEqual({ allowed: false, remaining: 0, resetMs: 1 });
    clock.advance(1);
    expect(await coordination.consume('k', policy)).toEqual({ allowed: true, remaining: 0, resetMs: 1_000 });
    await coordination.close();
  });

  it('expires a lease exactly at its ttl', async () => {
    const clock = manualClock();
    const coordination = new InProcessCoordination({ logger: createSilentLogger(), clock: clock.now });
    const lease = await coordination.acquireLease('job', 500);
    clock.advance(499);
    expect(await coordination.acquireLease('job', 500)).toBeNull();
    expect(await lease?.renew(500)).toBe(true);
    clock.advance(500);
    expect(await lease?.renew(500)).toBe(false);
    expect(await coordination.acquireLease('job', 500)).not.toBeNull();
    await coordination.close();
  });

  it('drops deliveries still queued when it closes', async () => {
    const coordination = new InProcessCoordination({ logger: createSilentLogger() });
    const messages: string[] = [];
    await coordination.subscribe('c', (message) => messages.push(message));
    await coordination.publish('c', 'queued');
    await coordination.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([]);
  });

  it('skips a handler that unsubscribed between publish and delivery', async () => {
    const coordination = new InProcessCoordination({ logger: createSilentLogger() });
    const leaving: string[] = [];
    const staying: string[] = [];
    const unsubscribe = await coordination.subscribe('c', (message) => leaving.push(message));
    await coordination.subscribe('c', (message) => staying.push(message));
    await coordination.publish('c', 'queued');
    await unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(staying).toEqual(['queued']);
    expect(leaving).toEqual([]);
    await coordination.close();
  });

  it('delivers asynchronously, after publish returns', async () => {
    const coordination = new InProcessCoordination({ logger: createSilentLogger() });
    const messages: string[] = [];
    await coordination.subscribe('c', (message) => messages.push(message));
    const publishing = coordination.publish('c', 'later');
    expect(messages).toEqual([]);
    await publishing;
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual(['later']);
    await coordination.close();
  });
});
