import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../logging/index.js';
import type { CoordinationBackend, CounterPolicy } from './coordination.js';

/** One line a {@link RecordingLogger} received. */
export interface RecordedLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps its lines in memory, for tests that assert what was logged. */
export interface RecordingLogger extends Logger {
  readonly lines: RecordedLogLine[];
}

/** Creates a {@link RecordingLogger}; children write to the same list. */
export function createRecordingLogger(lines: RecordedLogLine[] = []): RecordingLogger {
  const record =
    (level: RecordedLogLine['level']) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => createRecordingLogger(lines),
  };
}

/** How the contract suite obtains a backend. */
export interface CoordinationContractSubject {
  /** Opens a fresh backend; the suite closes it at the end of each test. */
  open(logger: Logger): CoordinationBackend | Promise<CoordinationBackend>;
  /** Whether two opened backends share state, as replicas on one Redis do. */
  sharedAcrossInstances: boolean;
}

/** Collects what a subscription receives. */
async function listen(backend: CoordinationBackend, channel: string) {
  const messages: string[] = [];
  const unsubscribe = await backend.subscribe(channel, (message) => messages.push(message));
  return { messages, unsubscribe };
}

/** Waits until `messages` holds `count` entries (a generous bound, never a fixed sleep). */
async function received(messages: string[], count: number): Promise<void> {
  await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(count), { timeout: 2_000, interval: 5 });
}

/** A name no other test (or earlier run) uses. */
function unique(what: string): string {
  return `${what}-${randomUUID()}`;
}

/**
 * The behaviour every {@link CoordinationBackend} must show; run it from each backend's test file.
 *
 * @example
 * describeCoordinationContract('in-process', { open: (logger) => new InProcessCoordination({ logger }), sharedAcrossInstances: false });
 */
export function describeCoordinationContract(label: string, subject: CoordinationContractSubject): void {
  describe(`coordination contract: ${label}`, () => {
    const opened: CoordinationBackend[] = [];
    let logger = createRecordingLogger();

    async function open(): Promise<CoordinationBackend> {
      const backend = await subject.open(logger);
      opened.push(backend);
      return backend;
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((backend) => backend.close()));
      logger = createRecordingLogger();
    });

    describeCounters(open);
    describePubSub(open, () => logger);
    describeLeases(open);
    describeLifecycle(open);
    if (subject.sharedAcrossInstances) describeReplicas(open);
    else describeSingleProcess(open);
  });
}

type Open = () => Promise<CoordinationBackend>;

function describeCounters(open: Open): void {
  describe('counters', () => {
    const policy: CounterPolicy = { points: 3, durationMs: 60_000 };

    it('admits exactly `points` charges in a window, counting down', async () => {
      const backend = await open();
      const key = unique('counter');
      const remaining: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const decision = await backend.consume(key, policy);
        expect(decision.allowed).toBe(true);
        remaining.push(decision.remaining);
      }
      expect(remaining).toEqual([2, 1, 0]);
    });

    it('refuses once the window is spent, with remaining 0 and the time left in the window', async () => {
      const backend = await open();
      const key = unique('counter');
      for (let i = 0; i < 3; i += 1) expect((await backend.consume(key, policy)).allowed).toBe(true);
      const refused = await backend.consume(key, policy);
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expect(refused.resetMs).toBeGreaterThan(0);
      expect(refused.resetMs).toBeLessThanOrEqual(policy.durationMs);
    });

    it('charges `cost` points at once', async () => {
      const backend = await open();
      const key = unique('counter');
      expect(await backend.consume(key, policy, 2)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await backend.consume(key, policy, 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('refuses a cost larger than what is left and charges nothing for it', async () => {
      const backend = await open();
      const key = unique('counter');
      await backend.consume(key, policy, 2);
      expect(await backend.consume(key, policy, 2)).toMatchObject({ allowed: false, remaining: 1 });
      expect(await backend.consume(key, policy, 1)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('refuses a cost above `points` without opening a window', async () => {
      const backend = await open();
      const key = unique('counter');
      expect(await backend.consume(key, policy, 4)).toEqual({
        allowed: false,
        remaining: 3,
        resetMs: policy.durationMs,
      });
      expect(await backend.consume(key, policy, 3)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('keeps separate keys independent', async () => {
      const backend = await open();
      const spent = unique('counter');
      await backend.consume(spent, policy, 3);
      expect((await backend.consume(spent, policy)).allowed).toBe(false);
      expect(await backend.consume(unique('counter'), policy)).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('counts one key separately under each policy', async () => {
      const backend = await open();
      const key = unique('counter');
      await backend.consume(key, policy, 3);
      expect((await backend.consume(key, policy)).allowed).toBe(false);
      expect(await backend.consume(key, { points: 5, durationMs: 60_000 })).toMatchObject({
        allowed: true,
        remaining: 4,
      });
    });

    it('admits again once the window has reset', async () => {
      const backend = await open();
      const key = unique('counter');
      const short: CounterPolicy = { points: 1, durationMs: 150 };
      await backend.consume(key, short);
      const refused = await backend.consume(key, short);
      expect(refused.allowed).toBe(false);
      await delay(refused.resetMs + 20);
      expect(await backend.consume(key, short)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('gives back refunded points in the open window, never below zero', async () => {
      const backend = await open();
      const key = unique('counter');
      await backend.consume(key, policy, 3);
      await backend.refund(key, policy);
      expect(await backend.consume(key, policy)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await backend.consume(key, policy)).allowed).toBe(false);
      await backend.refund(key, policy, 10);
      expect(await backend.consume(key, policy)).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('closes a window that refunds emptied, and ignores a refund without an open window', async () => {
      const backend = await open();
      const key = unique('counter');
      await backend.refund(key, policy);
      expect(await backend.consume(key, policy)).toMatchObject({
        allowed: true,
        remaining: 2,
        resetMs: policy.durationMs,
      });
      await backend.refund(key, policy);
      // A new window, so its full duration again (an emptied window does not keep its old reset time).
      expect(await backend.consume(key, policy)).toMatchObject({
        allowed: true,
        remaining: 2,
        resetMs: policy.durationMs,
      });
    });

    it('refunds only the key and policy named', async () => {
      const backend = await open();
      const key = unique('counter');
      const other: CounterPolicy = { points: 5, durationMs: 60_000 };
      await backend.consume(key, policy, 3);
      await backend.consume(key, other, 5);
      await backend.refund(unique('counter'), policy, 3);
      await backend.refund(key, other, 5);
      expect((await backend.consume(key, policy)).allowed).toBe(false);
      expect((await backend.consume(key, other)).allowed).toBe(true);
    });

    it('rejects a non-positive or fractional policy or cost', async () => {
      const backend = await open();
      const key = unique('counter');
      await expect(backend.consume(key, { points: 0, durationMs: 1000 })).rejects.toBeInstanceOf(RangeError);
      await expect(backend.consume(key, { points: 1, durationMs: 1.5 })).rejects.toBeInstanceOf(RangeError);
      await expect(backend.consume(key, policy, 0)).rejects.toBeInstanceOf(RangeError);
      await expect(backend.consume(key, policy, 1.5)).rejects.toBeInstanceOf(RangeError);
      await expect(backend.refund(key, policy, 0)).rejects.toBeInstanceOf(RangeError);
      await expect(backend.refund(key, { points: 0, durationMs: 1000 })).rejects.toBeInstanceOf(RangeError);
      expect((await backend.consume(key, policy, 1)).allowed).toBe(true);
    });
  });
}

function describePubSub(open: Open, currentLogger: () => RecordingLogger): void {
  describe('pub/sub', () => {
    it('delivers every message to every subscriber in publish order', async () => {
      const backend = await open();
      const channel = unique('channel');
      const first = await listen(backend, channel);
      const second = await listen(backend, channel);
      const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
      // Published without awaiting each one: order is the order of the calls.
      await Promise.all(sent.map((message) => backend.publish(channel, message)));
      await received(first.messages, sent.length);
      await received(second.messages, sent.length);
      expect(first.messages).toEqual(sent);
      expect(second.messages).toEqual(sent);
      await Promise.all([first.unsubscribe(), second.unsubscribe()]);
    });

    it('does not deliver what was published before the subscription', async () => {
      const backend = await open();
      const channel = unique('channel');
      await backend.publish(channel, 'before');
      const late = await listen(backend, channel);
      await backend.publish(channel, 'after');
      await received(late.messages, 1);
      expect(late.messages).toEqual(['after']);
      await late.unsubscribe();
    });

    it('stops delivering to a handler after it unsubscribes, while others still receive', async () => {
      const backend = await open();
      const channel = unique('channel');
      const leaving = await listen(backend, channel);
      const staying = await listen(backend, channel);
      await backend.publish(channel, 'one');
      await received(leaving.messages, 1);
      await leaving.unsubscribe();
      await backend.publish(channel, 'two');
      await received(staying.messages, 2);
      expect(staying.messages).toEqual(['one', 'two']);
      expect(leaving.messages).toEqual(['one']);
      await staying.unsubscribe();
    });

    it('resubscribes a channel after its last handler left', async () => {
      const backend = await open();
      const channel = unique('channel');
      const gone = await listen(backend, channel);
      await gone.unsubscribe();
      await gone.unsubscribe(); // a second call does nothing
      const back = await listen(backend, channel);
      await backend.publish(channel, 'again');
      await received(back.messages, 1);
      expect(back.messages).toEqual(['again']);
      expect(gone.messages).toEqual([]);
      await back.unsubscribe();
    });

    it('keeps channels isolated', async () => {
      const backend = await open();
      const mine = unique('channel');
      const other = unique('channel');
      const listener = await listen(backend, mine);
      await backend.publish(other, 'not for me');
      await backend.publish(mine, 'for me');
      await received(listener.messages, 1);
      expect(listener.messages).toEqual(['for me']);
      await listener.unsubscribe();
    });

    it('logs a throwing handler and still delivers to the others', async () => {
      const backend = await open();
      const channel = unique('channel');
      const unsubscribeFaulty = await backend.subscribe(channel, () => {
        throw new Error('handler bug');
      });
      const healthy = await listen(backend, channel);
      await backend.publish(channel, 'a');
      await backend.publish(channel, 'b');
      await received(healthy.messages, 2);
      expect(healthy.messages).toEqual(['a', 'b']);
      const failures = currentLogger().lines.filter((line) => line.message === 'coordination subscriber failed');
      expect(failures).toHaveLength(2);
      expect(JSON.stringify(failures)).not.toContain('"a"');
      await Promise.all([unsubscribeFaulty(), healthy.unsubscribe()]);
    });
  });
}

function describeLeases(open: Open): void {
  describe('leases', () => {
    it('is exclusive while held', async () => {
      const backend = await open();
      const name = unique('lease');
      const lease = await backend.acquireLease(name, 60_000);
      expect(lease?.name).toBe(name);
      expect(await backend.acquireLease(name, 60_000)).toBeNull();
      expect(await backend.acquireLease(unique('lease'), 60_000)).not.toBeNull();
    });

    it('lets the holder renew it beyond its first ttl', async () => {
      const backend = await open();
      const name = unique('lease');
      const lease = await backend.acquireLease(name, 100);
      expect(await lease?.renew(60_000)).toBe(true);
      await delay(130);
      expect(await backend.acquireLease(name, 60_000)).toBeNull();
    });

    it('can be taken again once released', async () => {
      const backend = await open();
      const name = unique('lease');
      const lease = await backend.acquireLease(name, 60_000);
      expect(await backend.acquireLease(name, 60_000)).toBeNull();
      await lease?.release();
      expect(await backend.acquireLease(name, 60_000)).not.toBeNull();
    });

    it('can be taken by another holder once expired', async () => {
      const backend = await open();
      const name = unique('lease');
      expect(await backend.acquireLease(name, 80)).not.toBeNull();
      await delay(100);
      expect(await backend.acquireLease(name, 60_000)).not.toBeNull();
    });

    it('is lost once expired, even if nobody took it', async () => {
      const backend = await open();
      const name = unique('lease');
      const lease = await backend.acquireLease(name, 80);
      await delay(100);
      expect(await lease?.renew(60_000)).toBe(false);
    });

    it('refuses a stale holder renewing or releasing the new holder’s lease', async () => {
      const backend = await open();
      const name = unique('lease');
      const stale = await backend.acquireLease(name, 80);
      await delay(100);
      const current = await backend.acquireLease(name, 60_000);
      expect(current).not.toBeNull();
      expect(await stale?.renew(60_000)).toBe(false);
      await stale?.release();
      expect(await backend.acquireLease(name, 60_000)).toBeNull();
      expect(await current?.renew(60_000)).toBe(true);
    });

    it('rejects a non-positive or fractional ttl', async () => {
      const backend = await open();
      const name = unique('lease');
      await expect(backend.acquireLease(name, 0)).rejects.toBeInstanceOf(RangeError);
      await expect(backend.acquireLease(name, 2.5)).rejects.toBeInstanceOf(RangeError);
      const lease = await backend.acquireLease(name, 60_000);
      await expect(lease?.renew(-1)).rejects.toBeInstanceOf(RangeError);
      expect(await lease?.renew(60_000)).toBe(true);
    });
  });
}

function describeLifecycle(open: Open): void {
  describe('close', () => {
    it('makes every later operation reject, and can be called twice', async () => {
      const backend = await open();
      const lease = await backend.acquireLease(unique('lease'), 60_000);
      await backend.close();
      await backend.close();
      const policy = { points: 1, durationMs: 1000 };
      await expect(backend.consume(unique('counter'), policy)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(backend.publish(unique('channel'), 'x')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(backend.subscribe(unique('channel'), () => {})).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
      });
      await expect(backend.acquireLease(unique('lease'), 1000)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(lease?.renew(1000)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });
  });
}

function describeReplicas(open: Open): void {
  describe('two replicas', () => {
    it('share counters', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const key = unique('counter');
      const policy = { points: 3, durationMs: 60_000 };
      await a.consume(key, policy, 2);
      expect(await b.consume(key, policy)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await a.consume(key, policy)).allowed).toBe(false);
    });

    it('deliver messages published by one to subscribers of the other', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const channel = unique('channel');
      const onA = await listen(a, channel);
      const onB = await listen(b, channel);
      await a.publish(channel, 'from a');
      await b.publish(channel, 'from b');
      await received(onA.messages, 2);
      await received(onB.messages, 2);
      expect(onA.messages).toEqual(['from a', 'from b']);
      expect(onB.messages).toEqual(['from a', 'from b']);
      await Promise.all([onA.unsubscribe(), onB.unsubscribe()]);
    });

    it('exclude each other from a lease until it is released', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const name = unique('lease');
      const held = await a.acquireLease(name, 60_000);
      expect(await b.acquireLease(name, 60_000)).toBeNull();
      await held?.release();
      const taken = await b.acquireLease(name, 60_000);
      expect(taken).not.toBeNull();
      expect(await a.acquireLease(name, 60_000)).toBeNull();
      await held?.release(); // a's stale handle cannot free b's lease
      expect(await a.acquireLease(name, 60_000)).toBeNull();
    });
  });
}

function describeSingleProcess(open: Open): void {
  describe('two instances', () => {
    it('do not share state (in-process serves one process)', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const key = unique('counter');
      const policy = { points: 1, durationMs: 60_000 };
      expect((await a.consume(key, policy)).allowed).toBe(true);
      expect((await a.consume(key, policy)).allowed).toBe(false);
      expect((await b.consume(key, policy)).allowed).toBe(true);
    });
  });
}
