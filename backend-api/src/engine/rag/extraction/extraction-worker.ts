import { Worker } from 'node:worker_threads';
import type { LocalDocumentReader, LocalReading } from './document-text.js';
import {
  ExtractionError,
  limitExceeded,
  type DocumentInput,
  type ExtractionFailureReason,
  type ExtractionLimitName,
  type ExtractionLimits,
} from './extraction.types.js';

/** Settings of the {@link ExtractionWorker}. */
export interface ExtractionWorkerSettings {
  /** The worker's heap (MiB): a document whose reading needs more is refused (`limit_exceeded`, `memory`). */
  memoryLimitMb: number;
  /** How long an idle worker is kept for the next document (ms) before it is stopped. */
  idleMs: number;
}

/** Defaults: a 512 MiB heap (eight times the 64 MiB a package may inflate to), kept 30 s after its last document. */
export const DEFAULT_EXTRACTION_WORKER_SETTINGS: ExtractionWorkerSettings = { memoryLimitMb: 512, idleMs: 30_000 };

/** A document sent to the worker. */
export interface ExtractionWorkerRequest {
  id: number;
  input: DocumentInput;
  limits: ExtractionLimits;
}

/** What the worker answers: ready once loaded, then one reading or failure per document. */
export type ExtractionWorkerReply =
  | { ready: true }
  | { id: number; reading: LocalReading }
  | { id: number; failure: { reason: ExtractionFailureReason; message: string; limit?: ExtractionLimitName } };

// The worker's entry is TypeScript when the engine runs from source (tests, `tsx`): tsx's loader is registered in
// the worker first. Built, it is the compiled `.js` beside this file.
const SOURCE_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.loader) (await import(workerData.loader)).register();
  await import(workerData.entry);
})();
`;

function workerData(): { entry: string; loader?: string } {
  const entry = new URL(`./extraction.worker${SOURCE_EXTENSION}`, import.meta.url).href;
  if (SOURCE_EXTENSION === '.js') return { entry };
  return { entry, loader: import.meta.resolve('tsx/esm/api') };
}

/**
 * Runs the local readers in a worker thread with a memory cap, one document at a time, so no file can take the process
 * down: a reading that outgrows the heap ends the worker (`limit_exceeded`, `memory`), and one that outlives the
 * deadline is stopped wherever it is, inside a PDF page included (`limit_exceeded`, `time`). The next document gets a
 * fresh worker. An idle worker is stopped after `idleMs`; {@link close} stops it at once.
 *
 * @example
 * const worker = new ExtractionWorker();
 * await extractDocumentText({ bytes, mediaType }, { reader: worker.read });
 */
export class ExtractionWorker {
  private worker: Promise<Worker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly settings: ExtractionWorkerSettings = DEFAULT_EXTRACTION_WORKER_SETTINGS) {}

  /** Reads one document in the worker, after the documents sent before it. */
  readonly read: LocalDocumentReader = (input, limits) => {
    const reading = this.queue.then(() => this.readOne(input, limits));
    this.queue = reading.catch(() => undefined);
    return reading;
  };

  /** Stops the worker; later reads are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async readOne(input: DocumentInput, limits: ExtractionLimits): Promise<LocalReading> {
    if (this.closed) throw new Error('The extraction worker is closed.');
    clearTimeout(this.idleTimer);
    const worker = await this.started();
    try {
      return await this.exchange(worker, input, limits);
    } finally {
      this.idleTimer = setTimeout(() => void this.stop(), this.settings.idleMs).unref();
    }
  }

  private exchange(worker: Worker, input: DocumentInput, limits: ExtractionLimits): Promise<LocalReading> {
    const id = this.nextId++;
    return new Promise<LocalReading>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(deadline);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        outcome();
      };
      const fail = (error: ExtractionError) => {
        // A worker that failed or was stopped mid-document is not reused.
        void this.stop();
        settle(() => reject(error));
      };
      const deadline = setTimeout(
        () => fail(limitExceeded('time', 'Reading the document took longer than allowed.')),
        limits.timeoutMs,
      );
      const onMessage = (reply: ExtractionWorkerReply) => {
        if (!('id' in reply) || reply.id !== id) return;
        if ('reading' in reply) return settle(() => resolve(reply.reading));
        const { reason, message, limit } = reply.failure;
        settle(() => reject(new ExtractionError(reason, message, limit ? { limit } : {})));
      };
      const onError = (error: Error & { code?: string }) =>
        fail(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? limitExceeded('memory', `Reading the document needs more than ${this.settings.memoryLimitMb} MiB.`)
            : new ExtractionError('malformed_document', 'The reader stopped on this document.', { cause: error }),
        );
      const onExit = () => fail(new ExtractionError('malformed_document', 'The reader stopped on this document.'));
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      // A copy is moved to the worker (the caller keeps its bytes; a Node Buffer may share a pooled buffer).
      const bytes = new Uint8Array(input.bytes);
      const request: ExtractionWorkerRequest = { id, input: { bytes, mediaType: input.mediaType }, limits };
      worker.postMessage(request, [bytes.buffer]);
    });
  }

  /** The running worker, started (and loaded) when there is none. */
  private started(): Promise<Worker> {
    this.worker ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(BOOTSTRAP, {
        eval: true,
        workerData: workerData(),
        resourceLimits: { maxOldGenerationSizeMb: this.settings.memoryLimitMb },
      });
      worker.unref();
      const onReady = (reply: ExtractionWorkerReply) => {
        if (!('ready' in reply)) return;
        worker.off('message', onReady).off('error', onFailure).off('exit', onFailure);
        resolve(worker);
      };
      const onFailure = (error?: unknown) => {
        this.worker = undefined;
        reject(new Error('The extraction worker could not start.', { cause: error }));
      };
      worker.on('message', onReady).once('error', onFailure).once('exit', onFailure);
    });
    return this.worker;
  }

  private async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const running = this.worker;
    this.worker = undefined;
    if (!running) return;
    const worker = await running.catch(() => undefined);
    await worker?.terminate();
  }
}
