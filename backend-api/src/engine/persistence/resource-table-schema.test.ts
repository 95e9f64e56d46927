import { describe, expect, it } from 'vitest';
import {
  createTableSql,
  definitionSchemaHash,
  quoteLiteral,
  rebuildSearchSql,
  resourceTableName,
  resourceTableNames,
  searchVectorExpression,
} from './resource-table-schema.js';
import type { ResourceStoreDefinition } from './resource-store.js';

const todos: ResourceStoreDefinition = {
  resourceType: 'todo-items',
  scope: 'organization',
  filterFields: [{ name: 'status', kind: 'string' }],
  searchFields: ['title', 'body'],
};

describe('resource table layout', () => {
  it('maps a type to r_<snake_case> and names its indexes after it', () => {
    expect(resourceTableName('todo-items')).toBe('r_todo_items');
    expect(resourceTableNames('todo-items').searchIndex).toBe('r_todo_items_search_idx');
  });

  it('keeps every derived name within 63 bytes, refusing longer types with the limit named', () => {
    const longestAccepted = `a${'b'.repeat(47)}`;
    const names = resourceTableNames(longestAccepted);
    expect(Math.max(...Object.values(names).map((name) => Buffer.byteLength(name)))).toBeLessThanOrEqual(63);
    expect(() => resourceTableName(`${longestAccepted}c`)).toThrow(/at most 48 characters/);
  });

  it('refuses types outside ^[a-z][a-z0-9_-]{0,62}$', () => {
    for (const bad of ['', 'Todos', '1todos', 'to dos', 'todos;', 'tödos'])
      expect(() => resourceTableName(bad)).toThrow(/must match/);
  });

  it('changes the schema hash with searchFields (and their order), not with filterFields or scope', () => {
    const base = definitionSchemaHash(todos);
    expect(definitionSchemaHash({ ...todos, filterFields: [], scope: 'user' })).toBe(base);
    expect(definitionSchemaHash({ ...todos, searchFields: ['title'] })).not.toBe(base);
    expect(definitionSchemaHash({ ...todos, searchFields: ['body', 'title'] })).not.toBe(base);
  });

  it('weights earlier search fields higher, with the simple configuration', () => {
    expect(searchVectorExpression(['title', 'body'])).toBe(
      "setweight(to_tsvector('simple'::regconfig, coalesce(data ->> 'title', '')), 'A') || " +
        "setweight(to_tsvector('simple'::regconfig, coalesce(data ->> 'body', '')), 'B')",
    );
  });

  it('quotes literals by doubling single quotes', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
  });

  it('creates idempotently and rebuilds search by drop and add', () => {
    const names = resourceTableNames('todo-items');
    expect(createTableSql(names)).toMatch(/^CREATE TABLE IF NOT EXISTS "r_todo_items"/);
    expect(createTableSql(names).match(/CREATE INDEX IF NOT EXISTS/g)).toHaveLength(4);
    expect(rebuildSearchSql(names, ['title'])).toMatch(
      /DROP COLUMN IF EXISTS search;\nALTER TABLE "r_todo_items" ADD COLUMN search tsvector GENERATED ALWAYS/,
    );
    expect(rebuildSearchSql(names, [])).toBe('ALTER TABLE "r_todo_items" DROP COLUMN IF EXISTS search;');
  });
});
