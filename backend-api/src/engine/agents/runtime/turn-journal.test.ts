import { describe, expect, it } from 'vitest';
import type { ProviderMessage } from '../providers/llm-provider.types.js';
import type { ConversationStore, Execution, ExecutionStatus } from './conversation.store.js';
import { TurnJournal } from './turn-journal.js';

interface Write {
  firstSeq: number;
  messages: readonly ProviderMessage[];
  create: boolean;
  release?: ExecutionStatus;
}

/** Records the journal's writes instead of storing them. */
function recordingStore(fail = false) {
  const writes: Write[] = [];
  const releases: ExecutionStatus[] = [];
  const store = {
    async append(
      _execution: Execution,
      firstSeq: number,
      messages: readonly ProviderMessage[],
      options: { create?: boolean; release?: ExecutionStatus } = {},
    ) {
      if (fail) throw new Error('database down');
      writes.push({
        firstSeq,
        messages: [...messages],
        create: options.create === true,
        ...(options.release ? { release: options.release } : {}),
      });
    },
    async setStatus(_id: string, status: ExecutionStatus) {
      releases.push(status);
    },
  };
  return { store: store as unknown as ConversationStore, writes, releases };
}

const execution: Execution = {
  id: 'e-1',
  systemRef: 's',
  agentRef: 'a',
  ownerKey: 'user:u',
  credentialKey: 'access_token:',
  organizationId: null,
  status: 'running',
};
const user = (content: string): ProviderMessage => ({ role: 'user', content });

describe('TurnJournal', () => {
  it('stores held messages with the release in one write, creating a new conversation', async () => {
    const { store, writes } = recordingStore();
    const journal = new TurnJournal(store, execution, [], false);
    journal.hold(user('hi'));
    journal.hold({ role: 'assistant', content: 'hello' });
    await journal.close('active');
    expect(writes).toEqual([
      { firstSeq: 1, messages: [user('hi'), { role: 'assistant', content: 'hello' }], create: true, release: 'active' },
    ]);
  });

  it('stores what is held before an effect, then the effect’s result, numbering after the loaded history', async () => {
    const { store, writes } = recordingStore();
    const journal = new TurnJournal(store, execution, [user('earlier')], true);
    journal.hold(user('rename it'));
    await journal.flush();
    journal.add({ role: 'tool', toolCallId: 'c', name: 't', content: '{}' });
    await journal.close('active');
    expect(writes.map((w) => [w.firstSeq, w.messages.length, w.create, w.release])).toEqual([
      [2, 1, false, undefined],
      [3, 1, false, undefined],
      [4, 0, false, 'active'],
    ]);
  });

  it('refreshes the claim of a long turn even with nothing held', async () => {
    const { store, writes } = recordingStore();
    const journal = new TurnJournal(store, execution, [user('earlier')], true);
    journal.keepAlive(60_000);
    await journal.flush();
    expect(writes).toEqual([]);
    journal.keepAlive(0);
    await journal.flush();
    expect(writes).toEqual([{ firstSeq: 2, messages: [], create: false }]);
  });

  it('reports a failed write at close and still lets go of the claim', async () => {
    const { store, releases } = recordingStore(true);
    const journal = new TurnJournal(store, execution, [user('earlier')], true);
    journal.add(user('lost'));
    await expect(journal.close('active')).rejects.toThrow('database down');
    expect(releases).toEqual(['active']);
  });
});
