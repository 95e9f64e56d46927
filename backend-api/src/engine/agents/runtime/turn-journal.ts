import { toStorableValue } from '../../resources/schema/index.js';
import type { ProviderMessage } from '../providers/index.js';
import type { ConversationStore, Execution, ExecutionStatus, TurnEndRow } from './conversation.store.js';

/** How often a long turn refreshes its claim (well inside STALE_TURN_MS). */
export const KEEP_ALIVE_MS = 60_000;

/**
 * The messages of one turn and their persistence. Replayable messages (the person's, the model's, reads and
 * refusals) are held and stored together; `flush` stores them before an effect, `add` stores an effect's result
 * at once (ordered, behind the turn), and `close` stores the rest with the release of the claim, in one statement.
 */
export class TurnJournal {
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private held: ProviderMessage[] = [];
  private readonly background: Promise<unknown>[] = [];
  private nextSeq: number;
  private lastWriteAt = Date.now();

  constructor(
    private readonly store: ConversationStore,
    private readonly execution: Execution,
    /** The conversation so far, oldest first (the model reads it; the journal appends to it). */
    readonly history: ProviderMessage[],
    /** Whether the conversation row exists yet (a new conversation is stored with its first write). */
    private stored: boolean,
  ) {
    this.nextSeq = history.length + 1;
  }

  /** Appends messages and stores them behind the turn. */
  add(...messages: ProviderMessage[]): void {
    const storable = messages.map(storableMessage);
    this.history.push(...storable);
    this.write([...this.held.splice(0), ...storable]);
  }

  /** Appends a message stored with the next write: an effect's flush, or the turn's close (with the release). */
  hold(message: ProviderMessage): void {
    const storable = storableMessage(message);
    this.history.push(storable);
    this.held.push(storable);
  }

  /** Keeps work the turn must finish before it ends (traces, budget records), without waiting for it now. */
  track(work: Promise<unknown>): void {
    this.background.push(work);
  }

  /**
   * Stores what is held when the last write is older than `intervalMs`: a long turn keeps its claim fresh, so it
   * is never mistaken for a dead one and taken over (see STALE_TURN_MS).
   */
  keepAlive(intervalMs = KEEP_ALIVE_MS): void {
    if (this.stored && Date.now() - this.lastWriteAt >= intervalMs) this.write(this.held.splice(0), undefined, true);
  }

  /** Waits until everything added so far is stored (before an approval request that refers to the conversation). */
  async flush(): Promise<void> {
    if (this.held.length > 0) this.write(this.held.splice(0));
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Stores what is left with the claim's release (and `alongside`, in the same statement), and waits for the turn's
   * background work. After an earlier failed write nothing more is stored, `alongside` included.
   */
  async close(release: ExecutionStatus, alongside?: TurnEndRow): Promise<void> {
    this.write(this.held.splice(0), release, false, alongside);
    await Promise.all([this.chain, ...this.background]);
    if (this.failure === undefined) return;
    // The conversation is not left claimed: a plain release is tried even when a write failed.
    if (this.stored) await this.store.setStatus(this.execution.id, release).catch(() => undefined);
    throw this.failure;
  }

  private write(messages: ProviderMessage[], release?: ExecutionStatus, touch = false, alongside?: TurnEndRow): void {
    if (messages.length === 0 && release === undefined && !touch) return;
    this.lastWriteAt = Date.now();
    const firstSeq = this.nextSeq;
    this.nextSeq += messages.length;
    const create = !this.stored;
    this.stored = true;
    this.chain = this.chain.then(async () => {
      // After a failed write the conversation is incomplete: later writes are skipped, the failure is reported.
      if (this.failure !== undefined) return;
      try {
        await this.store.append(this.execution, firstSeq, messages, {
          create,
          ...(release ? { release } : {}),
          ...(alongside ? { alongside } : {}),
        });
      } catch (error) {
        this.failure = error;
      }
    });
  }
}

/**
 * A message as it can be stored. A person's text was refused at the boundary if it could not be; what the model
 * answered (text, tool calls) and what tools returned is not refused but repaired (NUL dropped, lone surrogates
 * replaced by U+FFFD) so that one bad character never costs the conversation. The model reads the repaired form.
 */
function storableMessage(message: ProviderMessage): ProviderMessage {
  return toStorableValue(message);
}
