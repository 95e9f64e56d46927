import type {
  ChatStreamEvent,
  ChatStreamRequest,
  EmbeddingsRequest,
  EmbeddingsResult,
  ImageRequest,
  ImageResult,
  LLMProviderAdapter,
  StructuredRequest,
  StructuredResult,
} from './llm-provider.types.js';

/** The default number of calls one provider may have in flight. */
export const DEFAULT_PROVIDER_MAX_CONCURRENCY = 8;

/** Gives back a permit; calling it more than once has no further effect. */
export type ReleasePermit = () => void;

interface Waiter {
  grant: (release: ReleasePermit) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** Counts of a limiter, for tests and diagnostics. */
export interface ConcurrencyLimiterStats {
  max: number;
  inFlight: number;
  queued: number;
}

/**
 * A counting semaphore: at most `max` holders at a time, waiters served first in, first out. A waiter whose
 * signal aborts leaves the queue and rejects with the signal's reason; an already-aborted signal never queues.
 */
export class ConcurrencyLimiter {
  readonly max: number;
  #inFlight = 0;
  readonly #queue: Waiter[] = [];

  constructor(max: number = DEFAULT_PROVIDER_MAX_CONCURRENCY) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`A concurrency limit must be an integer of at least 1 (got ${max}).`);
    this.max = max;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queue.length;
  }

  stats(): ConcurrencyLimiterStats {
    return { max: this.max, inFlight: this.#inFlight, queued: this.#queue.length };
  }

  /** Waits for a permit (FIFO). Reject with `signal.reason` when it aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleasePermit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#inFlight < this.max && this.#queue.length === 0) {
      this.#inFlight += 1;
      return Promise.resolve(this.#permit());
    }
    return new Promise<ReleasePermit>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter);
          if (index >= 0) this.#queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
    });
  }

  /** Runs `task` holding a permit; the permit is released however the task ends. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  #permit(): ReleasePermit {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#handOver();
    };
  }

  /** Passes a freed permit to the oldest waiter, or returns it to the pool. */
  #handOver(): void {
    const next = this.#queue.shift();
    if (!next) {
      this.#inFlight -= 1;
      return;
    }
    if (next.signal && next.onAbort) next.signal.removeEventListener('abort', next.onAbort);
    next.grant(this.#permit());
  }
}

/** Streams `open()` while holding a permit from the first `next()` until the stream ends, fails or is closed. */
async function* limitedStream<T>(
  limiter: ConcurrencyLimiter,
  signal: AbortSignal | undefined,
  open: () => AsyncIterable<T>,
): AsyncGenerator<T> {
  const release = await limiter.acquire(signal);
  try {
    yield* open();
  } finally {
    release();
  }
}

/**
 * The adapter with every method run through `limiter` (the methods the adapter lacks stay absent). A stream
 * holds its permit for as long as it is being read.
 */
export function withConcurrencyLimit(adapter: LLMProviderAdapter, limiter: ConcurrencyLimiter): LLMProviderAdapter {
  const limited: LLMProviderAdapter = { ref: adapter.ref };
  const streamChat = adapter.streamChat?.bind(adapter);
  const generateStructured = adapter.generateStructured?.bind(adapter);
  const generateImage = adapter.generateImage?.bind(adapter);
  const embed = adapter.embed?.bind(adapter);
  if (streamChat) {
    limited.streamChat = (request: ChatStreamRequest): AsyncIterable<ChatStreamEvent> =>
      limitedStream(limiter, request.signal, () => streamChat(request));
  }
  if (generateStructured) {
    limited.generateStructured = (request: StructuredRequest): Promise<StructuredResult> =>
      limiter.run(() => generateStructured(request), request.signal);
  }
  if (generateImage) {
    limited.generateImage = (request: ImageRequest): Promise<ImageResult> =>
      limiter.run(() => generateImage(request), request.signal);
  }
  if (embed) {
    limited.embed = (request: EmbeddingsRequest): Promise<EmbeddingsResult> =>
      limiter.run(() => embed(request), request.signal);
  }
  return limited;
}
