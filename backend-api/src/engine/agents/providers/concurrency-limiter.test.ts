import { describe, expect, it } from 'vitest';
import { deferred, textReply, type Deferred } from '../../../testing/llm-stubs/index.js';
import { ANTHROPIC_SETUP, collect, rejection, useStubbedAdapter } from './adapter.fixtures.js';
import { ConcurrencyLimiter, withConcurrencyLimit } from './concurrency-limiter.js';
import {
  ProviderCallError,
  type ChatStreamEvent,
  type ChatStreamRequest,
  type LLMProviderAdapter,
  type StructuredResult,
} from './llm-provider.types.js';

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const FINISH: ChatStreamEvent = { type: 'finish', finishReason: 'stop', usage: USAGE };
const REQUEST: ChatStreamRequest = { model: 'test-model', messages: [{ role: 'user', content: 'Hi' }] };

/** A task that reports when it starts and finishes when the test says. */
function heldTask(log?: string[], name?: string) {
  const started = deferred();
  const finish = deferred<string>();
  const task = () => {
    if (log && name) log.push(name);
    started.resolve();
    return finish.promise;
  };
  return { task, started: started.promise, finish };
}

/**
 * A fake adapter: each stream yields one text delta, then waits for the test's gate, then finishes (or fails).
 * `closed` counts the streams whose iterator was closed (finished, failed or abandoned).
 */
function fakeAdapter(options: { fail?: boolean } = {}) {
  const gates: Deferred[] = [];
  const state = { opened: 0, closed: 0 };
  const adapter: LLMProviderAdapter = {
    ref: 'fake',
    async *streamChat(): AsyncIterable<ChatStreamEvent> {
      state.opened += 1;
      const gate = deferred();
      gates.push(gate);
      try {
        yield { type: 'text_delta', text: 'first' };
        await gate.promise;
        if (options.fail) throw new ProviderCallError('fake', 'unavailable', 'fake stream failed');
        yield FINISH;
      } finally {
        state.closed += 1;
      }
    },
    async generateStructured(): Promise<StructuredResult> {
      throw new ProviderCallError('fake', 'refused', 'fake refusal');
    },
  };
  return { adapter, gates, state };
}

describe('ConcurrencyLimiter', () => {
  it('refuses a limit below 1', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
  });

  it('refuses a limit that is not an integer', () => {
    expect(() => new ConcurrencyLimiter(1.5)).toThrow(RangeError);
  });

  it('runs at most max tasks at once and queues the rest', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const tasks = [heldTask(), heldTask(), heldTask(), heldTask()];

    const runs = tasks.map(({ task }) => limiter.run(task));
    await Promise.all([tasks[0]!.started, tasks[1]!.started]);

    expect(limiter.stats()).toEqual({ max: 2, inFlight: 2, queued: 2 });
    for (const { finish } of tasks) finish.resolve('done');
    await Promise.all(runs);
  });

  it('starts a queued task when a running one finishes', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const first = heldTask();
    const second = heldTask();
    const runs = [limiter.run(first.task), limiter.run(second.task)];
    await first.started;

    first.finish.resolve('first');
    await second.started;

    expect(limiter.stats()).toEqual({ max: 1, inFlight: 1, queued: 0 });
    second.finish.resolve('second');
    await expect(Promise.all(runs)).resolves.toEqual(['first', 'second']);
  });

  it('never has more than max tasks running across a whole batch', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let running = 0;
    let most = 0;
    const tasks = Array.from({ length: 10 }, () => heldTask());
    const runs = tasks.map(({ task }) =>
      limiter.run(async () => {
        running += 1;
        most = Math.max(most, running);
        try {
          return await task();
        } finally {
          running -= 1;
        }
      }),
    );

    for (const { started, finish } of tasks) {
      await started;
      finish.resolve('ok');
    }
    await Promise.all(runs);

    expect(most).toBe(3);
    expect(limiter.stats()).toEqual({ max: 3, inFlight: 0, queued: 0 });
  });

  it('grants permits first in, first out', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const order: string[] = [];
    const holder = heldTask(order, 'holder');
    const waiters = ['a', 'b', 'c'].map((name) => heldTask(order, name));
    const runs = [limiter.run(holder.task), ...waiters.map(({ task }) => limiter.run(task))];
    await holder.started;

    holder.finish.resolve('holder');
    for (const waiter of waiters) {
      await waiter.started;
      waiter.finish.resolve('done');
    }
    await Promise.all(runs);

    expect(order).toEqual(['holder', 'a', 'b', 'c']);
  });

  it('removes a waiter whose signal aborts from the queue and rejects it with the reason', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    expect(limiter.queued).toBe(1);

    const reason = new DOMException('cancelled', 'AbortError');
    controller.abort(reason);

    await expect(waiting).rejects.toBe(reason);
    expect(limiter.queued).toBe(0);
    release();
  });

  it('does not hand a freed permit to an aborted waiter', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const aborted = rejection(limiter.acquire(controller.signal));
    const next = limiter.acquire();
    controller.abort();
    await aborted;

    release();
    const releaseNext = await next;

    expect(limiter.stats()).toEqual({ max: 1, inFlight: 1, queued: 0 });
    releaseNext();
    expect(limiter.inFlight).toBe(0);
  });

  it('rejects an already-aborted signal without queueing', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    controller.abort();

    const error = await rejection(limiter.acquire(controller.signal));

    expect(error).toMatchObject({ name: 'AbortError' });
    expect(limiter.queued).toBe(0);
    release();
  });

  it('rejects an already-aborted signal even when a permit is free', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const controller = new AbortController();
    controller.abort();

    await expect(limiter.acquire(controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(limiter.inFlight).toBe(0);
  });

  it('releases the permit when a task fails', async () => {
    const limiter = new ConcurrencyLimiter(1);

    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');

    expect(limiter.stats()).toEqual({ max: 1, inFlight: 0, queued: 0 });
  });

  it('ignores a second release of the same permit', async () => {
    const limiter = new ConcurrencyLimiter(2);
    const first = await limiter.acquire();
    await limiter.acquire();

    first();
    first();

    expect(limiter.inFlight).toBe(1);
  });
});

describe('withConcurrencyLimit', () => {
  it('keeps the methods the adapter lacks absent', () => {
    const limited = withConcurrencyLimit(
      { ref: 'fake', embed: async () => ({ vectors: [], model: 'm', dims: 0, usage: USAGE }) },
      new ConcurrencyLimiter(1),
    );

    expect(limited.ref).toBe('fake');
    expect(typeof limited.embed).toBe('function');
    expect(Object.keys(limited)).toEqual(['ref', 'embed']);
  });

  it('releases the permit when a call fails', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const limited = withConcurrencyLimit(fakeAdapter().adapter, limiter);

    await expect(
      limited.generateStructured!({ model: 'm', prompt: 'p', schemaName: 's', jsonSchema: {} }),
    ).rejects.toBeInstanceOf(ProviderCallError);

    expect(limiter.inFlight).toBe(0);
  });

  it('takes no permit for a stream that is never read', () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, state } = fakeAdapter();

    withConcurrencyLimit(adapter, limiter).streamChat!(REQUEST);

    expect(limiter.inFlight).toBe(0);
    expect(state.opened).toBe(0);
  });

  it('holds the permit while a stream is being read', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, gates } = fakeAdapter();
    const limited = withConcurrencyLimit(adapter, limiter);
    const first = limited.streamChat!(REQUEST)[Symbol.asyncIterator]();
    await first.next();

    const second = limited.streamChat!(REQUEST)[Symbol.asyncIterator]();
    const secondNext = second.next();

    expect(limiter.stats()).toEqual({ max: 1, inFlight: 1, queued: 1 });
    gates[0]!.resolve();
    await first.next();
    await first.next();
    await secondNext;
    await second.return?.();
  });

  it('releases the permit when a stream is read to the end', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, gates } = fakeAdapter();
    const events: ChatStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of withConcurrencyLimit(adapter, limiter).streamChat!(REQUEST)) {
        events.push(event);
        if (event.type === 'text_delta') gates[0]!.resolve();
      }
    })();

    await reading;

    expect(events.map((event) => event.type)).toEqual(['text_delta', 'finish']);
    expect(limiter.inFlight).toBe(0);
  });

  it('releases the permit when a stream fails', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, gates } = fakeAdapter({ fail: true });
    const stream = withConcurrencyLimit(adapter, limiter).streamChat!(REQUEST)[Symbol.asyncIterator]();
    await stream.next();

    gates[0]!.resolve();
    await expect(stream.next()).rejects.toBeInstanceOf(ProviderCallError);

    expect(limiter.inFlight).toBe(0);
  });

  it('releases the permit and closes the adapter stream when the reader breaks out early', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, state } = fakeAdapter();

    for await (const event of withConcurrencyLimit(adapter, limiter).streamChat!(REQUEST)) {
      if (event.type === 'text_delta') break;
    }

    expect(limiter.inFlight).toBe(0);
    expect(state.closed).toBe(1);
  });

  it('releases the permit when the reader calls return() on the iterator', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, state } = fakeAdapter();
    const stream = withConcurrencyLimit(adapter, limiter).streamChat!(REQUEST)[Symbol.asyncIterator]();
    await stream.next();

    await stream.return?.();

    expect(limiter.inFlight).toBe(0);
    expect(state.closed).toBe(1);
  });

  it('hands the permit of an abandoned stream to the next queued stream', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter } = fakeAdapter();
    const limited = withConcurrencyLimit(adapter, limiter);
    const first = limited.streamChat!(REQUEST)[Symbol.asyncIterator]();
    await first.next();
    const second = limited.streamChat!(REQUEST)[Symbol.asyncIterator]();
    const secondNext = second.next();

    await first.return?.();

    await expect(secondNext).resolves.toEqual({ done: false, value: { type: 'text_delta', text: 'first' } });
    await second.return?.();
    expect(limiter.inFlight).toBe(0);
  });

  it('rejects a queued stream with the AbortError when its signal aborts, and removes it from the queue', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const { adapter, state } = fakeAdapter();
    const limited = withConcurrencyLimit(adapter, limiter);
    const first = limited.streamChat!(REQUEST)[Symbol.asyncIterator]();
    await first.next();
    const controller = new AbortController();
    const queued = limited.streamChat!({ ...REQUEST, signal: controller.signal })[Symbol.asyncIterator]();
    const queuedNext = queued.next();

    controller.abort();

    const error = await rejection(queuedNext);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(error).not.toBeInstanceOf(ProviderCallError);
    expect(limiter.queued).toBe(0);
    expect(state.opened).toBe(1);
    await first.return?.();
  });
});

describe('withConcurrencyLimit around the Anthropic adapter and its stub', () => {
  const harness = useStubbedAdapter(ANTHROPIC_SETUP);

  it('releases the permit of an SDK stream abandoned after its first delta, so the next call runs', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const limited = withConcurrencyLimit(harness.adapter, limiter);
    const gate = deferred();
    harness.stub.enqueue(
      textReply('First then the rest', { holdAfterFirstDelta: gate.promise }),
      textReply('Second call'),
    );

    for await (const event of limited.streamChat!(REQUEST)) {
      if (event.type === 'text_delta') break;
    }
    gate.resolve();
    const events = await collect(limited.streamChat!(REQUEST));

    expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(limiter.inFlight).toBe(0);
  });
});
