import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { byUser, ids, orgA, todoDefinition, type ContractContext } from './resource-store.contract-fixtures.js';
import type { ResourceStoreDefinition } from './resource-store.js';

/** A type name unique across runs, for tests that must create their table themselves. */
function uniqueType(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** ensureSchema: idempotence, concurrency, migrations of search fields, refusals of bad definitions. */
export function describeSchemaContract(context: ContractContext): void {
  describe('ensureSchema', () => {
    it('is idempotent: a second call keeps the table and its records', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { title: 'kept' }, creator: byUser('user_u') });
      await context.store().ensureSchema([todos]);
      await context.store().ensureSchema([{ ...todos }]);
      expect(await context.store().findById(todos, orgA, record.id)).toEqual(record);
    });

    it('is safe when replicas call it concurrently for the same new types', async () => {
      const definitions = [todoDefinition(), todoDefinition()];
      const replica = await context.harness().openReplica();
      await Promise.all([
        context.store().ensureSchema(definitions),
        replica.ensureSchema(definitions),
        context.store().ensureSchema(definitions),
        replica.ensureSchema([...definitions].reverse()),
      ]);
      for (const definition of definitions) {
        const record = await replica.insert(definition, orgA, { data: { title: 'works' }, creator: byUser('user_u') });
        expect(await context.store().findById(definition, orgA, record.id)).toEqual(record);
      }
    });

    it('rebuilds the search column when searchFields change, keeping the records', async () => {
      const titleOnly = await context.freshDefinition({ searchFields: ['title'] });
      const record = await context.store().insert(titleOnly, orgA, {
        data: { title: 'weekly sync', body: 'quarterly numbers' },
        creator: byUser('user_u'),
      });
      const query = { text: 'quarterly', filters: {}, limit: 10 };
      expect((await context.store().search(titleOnly, orgA, query)).records).toEqual([]);
      const withBody: ResourceStoreDefinition = { ...titleOnly, searchFields: ['title', 'body'] };
      await context.store().ensureSchema([withBody]);
      expect(ids((await context.store().search(withBody, orgA, query)).records)).toEqual([record.id]);
      expect(await context.store().findById(withBody, orgA, record.id)).toEqual(record);
    });

    it('adds search to a type that had none, and removes it again', async () => {
      const plain = await context.freshDefinition({ searchFields: [] });
      const record = await context.store().insert(plain, orgA, { data: { title: 'alpha' }, creator: byUser('user_u') });
      const searchable = { ...plain, searchFields: ['title'] };
      await context.store().ensureSchema([searchable]);
      expect(
        ids((await context.store().search(searchable, orgA, { text: 'alpha', filters: {}, limit: 10 })).records),
      ).toEqual([record.id]);
      await context.store().ensureSchema([plain]);
      expect(ids((await context.store().search(plain, orgA, { text: 'zzz', filters: {}, limit: 10 })).records)).toEqual(
        [record.id],
      );
    });

    it('needs nothing for a new filter field: existing records are filterable at once', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { owner: 'ana' }, creator: byUser('user_u') });
      const withOwner = { ...todos, filterFields: [...todos.filterFields, { name: 'owner', kind: 'string' as const }] };
      await context.store().ensureSchema([withOwner]);
      expect(
        ids((await context.store().list(withOwner, orgA, { filters: { owner: 'ana' }, limit: 10 })).records),
      ).toEqual([record.id]);
    });

    it('refuses a type that is not a lowercase identifier; a valid one is accepted', async () => {
      await expect(context.store().ensureSchema([todoDefinition({ resourceType: 'Todos' })])).rejects.toThrow(
        /Resource type "Todos"/,
      );
      await expect(
        context.store().ensureSchema([todoDefinition({ resourceType: 'todos"; DROP TABLE x; --' })]),
      ).rejects.toThrow(/must match/);
      await expect(
        context.store().ensureSchema([todoDefinition({ resourceType: uniqueType('todos') })]),
      ).resolves.toBeUndefined();
    });

    it("refuses a type whose names exceed PostgreSQL's identifier limit, naming the limit", async () => {
      const tooLong = `a${'b'.repeat(60)}`;
      await expect(context.store().ensureSchema([todoDefinition({ resourceType: tooLong })])).rejects.toThrow(
        /63-byte identifier limit/,
      );
      await expect(
        context.store().ensureSchema([todoDefinition({ resourceType: `a${'b'.repeat(40)}` })]),
      ).resolves.toBeUndefined();
    });

    it('refuses two types that would share one table', async () => {
      const base = uniqueType('shared');
      const dashed = todoDefinition({ resourceType: base });
      const underscored = todoDefinition({ resourceType: base.replace(/-/g, '_') });
      await context.store().ensureSchema([dashed]);
      await expect(context.store().ensureSchema([underscored])).rejects.toThrow(/would share the table/);
      await expect(context.store().ensureSchema([dashed])).resolves.toBeUndefined();
    });

    it('refuses a field name that is not an identifier', async () => {
      const definition = todoDefinition({ searchFields: ["title') || pg_sleep(1) || ('"] });
      await expect(context.store().ensureSchema([definition])).rejects.toThrow(/field name/);
    });
  });
}
