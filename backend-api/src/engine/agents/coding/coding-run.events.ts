import type { CodingAgent_ProgressEvent } from '@wildo/shared-lib';
import type { Clock } from '../../container/index.js';
import type { Logger } from '../../logging/index.js';
import { toStorableValue } from '../../resources/schema/index.js';

/** An event as the run emits it: the log adds `runId`, `seq` and `at`. */
export type CodingProgressInput = CodingAgent_ProgressEvent extends infer E
  ? E extends CodingAgent_ProgressEvent
    ? Omit<E, 'runId' | 'seq' | 'at'>
    : never
  : never;

/** Receives a run's progress events as they happen. */
export type CodingProgressListener = (event: CodingAgent_ProgressEvent) => void;

/** Entries a run record keeps at most; later ones are counted, not kept (the record says it was cut). */
export const MAX_RECORD_ENTRIES = 2_000;
/** Characters of free text (messages, titles, questions) an event carries at most. */
export const MAX_EVENT_TEXT = 8_000;

const STREAMED_ONLY = new Set<CodingAgent_ProgressEvent['type']>(['message', 'thought']);

/**
 * The progress of one run: numbers and stamps each event, hands it to the host's listener (a failing listener is
 * logged, never allowed to fail the run) and keeps the run record: every event but the message and thought deltas,
 * with text made storable and bounded.
 */
export class CodingRunEvents {
  private seq = 0;
  private readonly entries: CodingAgent_ProgressEvent[] = [];
  private dropped = 0;

  constructor(
    readonly runId: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly listener?: CodingProgressListener,
  ) {}

  /** Emits one event. */
  emit(input: CodingProgressInput): void {
    const event = toStorableValue({
      ...input,
      runId: this.runId,
      seq: ++this.seq,
      at: this.clock.now().toISOString(),
    } as CodingAgent_ProgressEvent);
    if (!STREAMED_ONLY.has(event.type)) {
      if (this.entries.length < MAX_RECORD_ENTRIES) this.entries.push(event);
      else this.dropped++;
    }
    if (!this.listener) return;
    try {
      this.listener(event);
    } catch (error) {
      this.logger.warn('a coding progress listener failed', { runId: this.runId, error: String(error) });
    }
  }

  /** The run record so far, and how many entries did not fit. */
  record(): { entries: CodingAgent_ProgressEvent[]; dropped: number } {
    return { entries: [...this.entries], dropped: this.dropped };
  }
}

/** The last `max` characters of `text` (the end of an agent's message is the part that says how it ended). */
export function tail(text: string, max = MAX_EVENT_TEXT): string {
  return text.length <= max ? text : text.slice(text.length - max);
}
