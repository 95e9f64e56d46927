import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameworkError } from '../errors/index.js';
import {
  byMachine,
  byUser,
  orgA,
  TestClock,
  todoDefinition,
  type ContractContext,
  type OpenResourceStoreHarness,
  type ResourceStoreHarness,
} from './resource-store.contract-fixtures.js';
import { describeQueryContract } from './resource-store.contract-queries.js';
import { describeSchemaContract } from './resource-store.contract-schema.js';
import { describeTenancyContract } from './resource-store.contract-tenancy.js';
import { describeWriteContract } from './resource-store.contract-writes.js';

/** The harness types, for backends' test files. */
export type { OpenResourceStoreHarness, ResourceStoreHarness } from './resource-store.contract-fixtures.js';

/** How long opening a harness may take (PGlite boots a WASM PostgreSQL: seconds on a busy machine). */
const OPEN_TIMEOUT_MS = 120_000;

function describeRoundTrip(context: ContractContext): void {
  describe('insert and findById', () => {
    it('returns the inserted record with its system fields', async () => {
      const todos = await context.freshDefinition();
      context.clock.set('2030-02-03T04:05:06.789Z');
      const inserted = await context
        .store()
        .insert(todos, orgA, { data: { title: 'Ship it', priority: 2 }, creator: byUser('user_u') });
      expect(inserted).toMatchObject({
        organizationId: 'org_a',
        userId: null,
        createdByUserId: 'user_u',
        createdByPrincipal: { type: 'user', id: 'user_u' },
        createdAt: '2030-02-03T04:05:06.789Z',
        updatedAt: '2030-02-03T04:05:06.789Z',
        version: 1,
        data: { title: 'Ship it', priority: 2 },
      });
      expect(await context.store().findById(todos, orgA, inserted.id)).toEqual(inserted);
    });

    it('keeps the principal of a machine creator, without a user id', async () => {
      const todos = await context.freshDefinition();
      const inserted = await context.store().insert(todos, orgA, { data: { title: 'Nightly' }, creator: byMachine });
      const found = await context.store().findById(todos, orgA, inserted.id);
      expect(found?.createdByUserId).toBeNull();
      expect(found?.createdByPrincipal).toEqual({ type: 'api_key', id: 'key_1' });
    });

    it('generates a UUID when no id is given, and keeps a given one', async () => {
      const todos = await context.freshDefinition();
      const generated = await context.store().insert(todos, orgA, { data: {}, creator: byUser('user_u') });
      const given = await context
        .store()
        .insert(todos, orgA, { id: 'todo_given', data: {}, creator: byUser('user_u') });
      expect(generated.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(given.id).toBe('todo_given');
    });

    it('refuses a second record with an existing id as CONFLICT', async () => {
      const todos = await context.freshDefinition();
      await context.store().insert(todos, orgA, { id: 'dup', data: { title: 'first' }, creator: byUser('user_u') });
      const second = context
        .store()
        .insert(todos, orgA, { id: 'dup', data: { title: 'second' }, creator: byUser('user_u') });
      await expect(second).rejects.toSatisfy((error) => error instanceof FrameworkError && error.code === 'CONFLICT');
      expect((await context.store().findById(todos, orgA, 'dup'))?.data).toEqual({ title: 'first' });
    });

    it('answers null for an unknown id', async () => {
      const todos = await context.freshDefinition();
      await context.store().insert(todos, orgA, { id: 'known', data: {}, creator: byUser('user_u') });
      expect(await context.store().findById(todos, orgA, 'unknown')).toBeNull();
      expect(await context.store().findById(todos, orgA, 'known')).not.toBeNull();
    });

    it('round-trips nested JSON, unicode and JSON null values', async () => {
      const todos = await context.freshDefinition();
      const data = { title: 'Café ☕ "quoted" \\ back', tags: ['a', 'b'], meta: { n: 1.5, none: null } };
      const inserted = await context.store().insert(todos, orgA, { data, creator: byUser('user_u') });
      expect((await context.store().findById(todos, orgA, inserted.id))?.data).toEqual(data);
    });
  });
}

/**
 * The behaviour every {@link ResourceStore} backend must show. Call it inside a `describe` of the
 * backend's test file; `open` is called once for the whole suite and its harness closed at the end.
 *
 * @example
 * describeResourceStoreContract('PGlite', async ({ now }) => { ... return { store, openReplica, close }; });
 */
export function describeResourceStoreContract(label: string, open: OpenResourceStoreHarness): void {
  describe(`ResourceStore contract: ${label}`, () => {
    const clock = new TestClock();
    let harness: ResourceStoreHarness | undefined;
    beforeAll(async () => {
      harness = await open({ now: clock.now });
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await harness?.close();
    }, OPEN_TIMEOUT_MS);

    const opened = (): ResourceStoreHarness => {
      if (harness === undefined) throw new Error('The harness did not open.');
      return harness;
    };
    const context: ContractContext = {
      clock,
      harness: opened,
      store: () => opened().store,
      async freshDefinition(overrides) {
        const definition = todoDefinition(overrides);
        await opened().store.ensureSchema([definition]);
        return definition;
      },
    };
    describeRoundTrip(context);
    describeTenancyContract(context);
    describeQueryContract(context);
    describeWriteContract(context);
    describeSchemaContract(context);
  });
}
