import { describe, expect, it } from 'vitest';
import { byUser, expectValidationFailed, ids, orgA, type ContractContext } from './resource-store.contract-fixtures.js';
import type { ResourceStore, ResourceStoreDefinition, StoredRecord } from './resource-store.js';

/** Inserts `count` records in order (oldest first) and returns them. */
async function seed(
  store: ResourceStore,
  todos: ResourceStoreDefinition,
  count: number,
  data: (i: number) => Record<string, unknown>,
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  for (let i = 0; i < count; i += 1)
    records.push(await store.insert(todos, orgA, { data: data(i), creator: byUser('user_u') }));
  return records;
}

/** Follows `nextCursor` to the end, collecting every page. */
async function allPages(
  fetch: (cursor: string | undefined) => Promise<{ records: StoredRecord[]; nextCursor: string | null }>,
): Promise<StoredRecord[][]> {
  const pages: StoredRecord[][] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor);
    pages.push(page.records);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

function describeFilters(context: ContractContext): void {
  describe('filters', () => {
    const listIds = async (todos: ResourceStoreDefinition, filters: Record<string, string | number | boolean | null>) =>
      ids((await context.store().list(todos, orgA, { filters, limit: 100 })).records).sort();

    it('a string filter matches equal values only', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 3, (i) => ({ status: i === 1 ? 'done' : 'open' }));
      const done = await listIds(todos, { status: 'done' });
      const open = await listIds(todos, { status: 'open' });
      expect([done.length, open.length]).toEqual([1, 2]);
    });

    it('a number filter matches equal numbers only', async () => {
      const todos = await context.freshDefinition();
      const [, two] = await seed(context.store(), todos, 3, (i) => ({ priority: i + 1 }));
      expect(await listIds(todos, { priority: 2 })).toEqual([two?.id]);
      expect(await listIds(todos, { priority: 7 })).toEqual([]);
    });

    it('a boolean filter matches true and false separately', async () => {
      const todos = await context.freshDefinition();
      const [yes, no] = await seed(context.store(), todos, 2, (i) => ({ done: i === 0 }));
      expect(await listIds(todos, { done: true })).toEqual([yes?.id]);
      expect(await listIds(todos, { done: false })).toEqual([no?.id]);
    });

    it('a null filter matches JSON null, not other values', async () => {
      const todos = await context.freshDefinition();
      const [none] = await seed(context.store(), todos, 2, (i) => ({ status: i === 0 ? null : 'open' }));
      expect(await listIds(todos, { status: null })).toEqual([none?.id]);
    });

    it('several filters combine with AND', async () => {
      const todos = await context.freshDefinition();
      const records = await seed(context.store(), todos, 4, (i) => ({
        status: i < 2 ? 'open' : 'done',
        done: i % 2 === 0,
      }));
      expect(await listIds(todos, { status: 'open', done: true })).toEqual([records[0]?.id]);
    });

    it('treats an absent (undefined) filter value as no filter', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 2, (i) => ({ status: i === 0 ? 'open' : 'done' }));
      const filters = { status: undefined } as unknown as Record<string, string>;
      expect((await context.store().list(todos, orgA, { filters, limit: 10 })).records).toHaveLength(2);
    });

    it('a filter on an undeclared field is refused; a declared one works', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 1, () => ({ status: 'open', secret: 'x' }));
      await expectValidationFailed(
        context.store().list(todos, orgA, { filters: { secret: 'x' }, limit: 10 }),
        'filters',
      );
      expect(
        (await context.store().list(todos, orgA, { filters: { status: 'open' }, limit: 10 })).records,
      ).toHaveLength(1);
    });

    it('a filter value of the wrong kind is refused without echoing it', async () => {
      const todos = await context.freshDefinition();
      await expectValidationFailed(
        context.store().list(todos, orgA, { filters: { priority: 'high-secret' }, limit: 10 }),
        'filters.priority',
        'high-secret',
      );
    });
  });
}

function describePagination(context: ContractContext): void {
  describe('pagination', () => {
    it('traverses every record exactly once, newest first, in bounded pages', async () => {
      const todos = await context.freshDefinition();
      const records = await seed(context.store(), todos, 23, (i) => ({ title: `t${i}` }));
      const pages = await allPages((cursor) =>
        context.store().list(todos, orgA, { filters: {}, limit: 5, ...(cursor ? { cursor } : {}) }),
      );
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flat().map((record) => record.id)).toEqual(ids(records).reverse());
    });

    it('ends with a null cursor when the last page is exactly full', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 10, () => ({}));
      const pages = await allPages((cursor) =>
        context.store().list(todos, orgA, { filters: {}, limit: 5, ...(cursor ? { cursor } : {}) }),
      );
      expect(pages.map((page) => page.length)).toEqual([5, 5]);
    });

    it('keeps filtering across pages', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 12, (i) => ({ status: i % 3 === 0 ? 'done' : 'open' }));
      const pages = await allPages((cursor) =>
        context.store().list(todos, orgA, { filters: { status: 'done' }, limit: 3, ...(cursor ? { cursor } : {}) }),
      );
      expect(pages.flat().every((record) => record.data.status === 'done')).toBe(true);
      expect(pages.flat()).toHaveLength(4);
    });

    it('refuses a page size outside 1..1000; 1000 is accepted', async () => {
      const todos = await context.freshDefinition();
      await expectValidationFailed(context.store().list(todos, orgA, { filters: {}, limit: 0 }), 'limit');
      await expectValidationFailed(context.store().list(todos, orgA, { filters: {}, limit: 1001 }), 'limit');
      await expectValidationFailed(context.store().list(todos, orgA, { filters: {}, limit: 2.5 }), 'limit');
      expect((await context.store().list(todos, orgA, { filters: {}, limit: 1000 })).records).toEqual([]);
    });
  });
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

function describeCursors(context: ContractContext): void {
  describe('invalid cursors', () => {
    const setup = async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 3, (i) => ({ title: `alpha ${i}` }));
      const listed = await context.store().list(todos, orgA, { filters: {}, limit: 1 });
      const searched = await context.store().search(todos, orgA, { text: 'alpha', filters: {}, limit: 1 });
      return { todos, listCursor: listed.nextCursor ?? '', searchCursor: searched.nextCursor ?? '' };
    };

    it('accepts the cursors it issued (positive control)', async () => {
      const { todos, listCursor, searchCursor } = await setup();
      expect(
        (await context.store().list(todos, orgA, { filters: {}, limit: 1, cursor: listCursor })).records,
      ).toHaveLength(1);
      expect(
        (await context.store().search(todos, orgA, { text: 'alpha', filters: {}, limit: 1, cursor: searchCursor }))
          .records,
      ).toHaveLength(1);
    });

    const listCases: [
      string,
      (todos: ResourceStoreDefinition, issued: { listCursor: string; searchCursor: string }) => string,
    ][] = [
      ['garbage text', () => 'not a cursor!!'],
      ['an empty string', () => ''],
      ['random base64url', () => b64('{"seq":5}')],
      ['a search cursor', (_todos, issued) => issued.searchCursor],
      ['a cursor of another resource type', () => b64('l:other-type:5')],
      ['a seq beyond bigint', (todos) => b64(`l:${todos.resourceType}:9223372036854775808`)],
      ['a zero seq', (todos) => b64(`l:${todos.resourceType}:0`)],
      ['a negative seq', (todos) => b64(`l:${todos.resourceType}:-1`)],
      ['an issued cursor with padding appended', (_todos, issued) => `${issued.listCursor}=`],
      ['an overlong token', () => 'A'.repeat(5000)],
    ];
    for (const [name, make] of listCases) {
      it(`list refuses ${name} as VALIDATION_FAILED without echoing it`, async () => {
        const issued = await setup();
        const cursor = make(issued.todos, issued);
        await expectValidationFailed(
          context.store().list(issued.todos, orgA, { filters: {}, limit: 1, cursor }),
          'cursor',
          cursor || undefined,
        );
      });
    }

    it('search refuses a list cursor', async () => {
      const { todos, listCursor } = await setup();
      await expectValidationFailed(
        context.store().search(todos, orgA, { text: 'alpha', filters: {}, limit: 1, cursor: listCursor }),
        'cursor',
        listCursor,
      );
    });

    it('search refuses an offset beyond its cap', async () => {
      const { todos } = await setup();
      const cursor = b64(`s:${todos.resourceType}:10001`);
      await expectValidationFailed(
        context.store().search(todos, orgA, { text: 'alpha', filters: {}, limit: 1, cursor }),
        'cursor',
        cursor,
      );
    });
  });
}

function describeSearch(context: ContractContext): void {
  describe('search', () => {
    it('ranks a title match above a body match, ties newest first', async () => {
      const todos = await context.freshDefinition();
      const [bodyOld, title, bodyNew] = await seed(context.store(), todos, 3, (i) =>
        i === 1 ? { title: 'rocket launch', body: 'checklist' } : { title: 'notes', body: 'about the rocket' },
      );
      const page = await context.store().search(todos, orgA, { text: 'rocket', filters: {}, limit: 10 });
      expect(ids(page.records)).toEqual([title?.id, bodyNew?.id, bodyOld?.id]);
    });

    it('matches only records containing the words (web search syntax)', async () => {
      const todos = await context.freshDefinition();
      const [, both] = await seed(context.store(), todos, 3, (i) => ({
        title: ['red apple', 'red green apple', 'green pear'][i],
      }));
      expect(
        ids((await context.store().search(todos, orgA, { text: 'apple -red', filters: {}, limit: 10 })).records),
      ).toEqual([]);
      expect(
        ids((await context.store().search(todos, orgA, { text: 'green apple', filters: {}, limit: 10 })).records),
      ).toEqual([both?.id]);
    });

    it('combines the text with filters', async () => {
      const todos = await context.freshDefinition();
      const [, open] = await seed(context.store(), todos, 2, (i) => ({
        title: 'budget review',
        status: i === 0 ? 'done' : 'open',
      }));
      expect(
        ids(
          (await context.store().search(todos, orgA, { text: 'budget', filters: { status: 'open' }, limit: 10 }))
            .records,
        ),
      ).toEqual([open?.id]);
    });

    it('pages through every match exactly once', async () => {
      const todos = await context.freshDefinition();
      const records = await seed(context.store(), todos, 7, (i) => ({ title: `match ${i}` }));
      const pages = await allPages((cursor) =>
        context.store().search(todos, orgA, { text: 'match', filters: {}, limit: 3, ...(cursor ? { cursor } : {}) }),
      );
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(new Set(pages.flat().map((record) => record.id))).toEqual(new Set(ids(records)));
    });

    it('answers from filters only, newest first, when the type has no search fields', async () => {
      const todos = await context.freshDefinition({ searchFields: [] });
      const [older, newer] = await seed(context.store(), todos, 2, () => ({ title: 'anything' }));
      expect(
        ids((await context.store().search(todos, orgA, { text: 'unrelated', filters: {}, limit: 10 })).records),
      ).toEqual([newer?.id, older?.id]);
    });

    it('finds nothing for text without words, without failing', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 1, () => ({ title: 'hello' }));
      expect((await context.store().search(todos, orgA, { text: '!!! &&', filters: {}, limit: 10 })).records).toEqual(
        [],
      );
    });
  });
}

function describeCountBy(context: ContractContext): void {
  describe('countBy', () => {
    it('counts records per value, missing fields under null', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 6, (i) =>
        i === 5 ? {} : { status: i < 3 ? 'open' : i === 3 ? 'done' : null },
      );
      const counts = await context.store().countBy(todos, orgA, 'status', {});
      expect(Object.fromEntries(counts)).toEqual({ open: 3, done: 1, null: 2 });
      expect(counts.get(null)).toBe(2);
    });

    it('applies filters before counting', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 4, (i) => ({ status: i < 2 ? 'open' : 'done', priority: i % 2 }));
      expect(Object.fromEntries(await context.store().countBy(todos, orgA, 'status', { priority: 1 }))).toEqual({
        open: 1,
        done: 1,
      });
    });

    it('refuses an undeclared field; a declared one counts', async () => {
      const todos = await context.freshDefinition();
      await seed(context.store(), todos, 1, () => ({ status: 'open', secret: 'x' }));
      await expectValidationFailed(context.store().countBy(todos, orgA, 'secret', {}), 'field');
      expect((await context.store().countBy(todos, orgA, 'status', {})).get('open')).toBe(1);
    });
  });
}

/** Filters, pagination, cursors, search and counting. */
export function describeQueryContract(context: ContractContext): void {
  describeFilters(context);
  describePagination(context);
  describeCursors(context);
  describeSearch(context);
  describeCountBy(context);
}
