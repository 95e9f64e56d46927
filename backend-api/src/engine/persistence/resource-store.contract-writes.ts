import { describe, expect, it } from 'vitest';
import { byUser, expectValidationFailed, orgA, type ContractContext } from './resource-store.contract-fixtures.js';

function describeUpdates(context: ContractContext): void {
  describe('update', () => {
    it('replaces data, bumps the version and updatedAt, keeps createdAt', async () => {
      const todos = await context.freshDefinition();
      context.clock.set('2030-03-01T10:00:00.000Z');
      const record = await context
        .store()
        .insert(todos, orgA, { data: { title: 'draft', status: 'open' }, creator: byUser('user_u') });
      context.clock.set('2030-03-01T11:30:00.000Z');
      const outcome = await context
        .store()
        .update(todos, orgA, record.id, { data: { title: 'final' }, expectedVersion: 1 });
      expect(outcome).toEqual({
        ok: true,
        value: { ...record, data: { title: 'final' }, version: 2, updatedAt: '2030-03-01T11:30:00.000Z' },
      });
      expect(await context.store().findById(todos, orgA, record.id)).toEqual(outcome.ok ? outcome.value : undefined);
    });

    it('refuses a stale expectedVersion as version_conflict and leaves the record unchanged', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { title: 'v1' }, creator: byUser('user_u') });
      expect(
        (await context.store().update(todos, orgA, record.id, { data: { title: 'v2' }, expectedVersion: 1 })).ok,
      ).toBe(true);
      const stale = await context
        .store()
        .update(todos, orgA, record.id, { data: { title: 'lost update' }, expectedVersion: 1 });
      expect(stale).toEqual({ ok: false, reason: 'version_conflict' });
      expect(await context.store().findById(todos, orgA, record.id)).toMatchObject({
        version: 2,
        data: { title: 'v2' },
      });
    });

    it('answers not_found for an unknown id', async () => {
      const todos = await context.freshDefinition();
      expect(await context.store().update(todos, orgA, 'missing', { data: {}, expectedVersion: 1 })).toEqual({
        ok: false,
        reason: 'not_found',
      });
    });

    it('refuses an expectedVersion no record can have', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: {}, creator: byUser('user_u') });
      await expectValidationFailed(
        context.store().update(todos, orgA, record.id, { data: {}, expectedVersion: 0 }),
        'expectedVersion',
      );
      expect((await context.store().update(todos, orgA, record.id, { data: {}, expectedVersion: 1 })).ok).toBe(true);
    });

    it('lets exactly one of two concurrent updates at the same version win', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { n: 0 }, creator: byUser('user_u') });
      const outcomes = await Promise.all(
        [1, 2].map((n) => context.store().update(todos, orgA, record.id, { data: { n }, expectedVersion: 1 })),
      );
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([{ ok: false, reason: 'version_conflict' }]);
    });
  });
}

function describeDeletes(context: ContractContext): void {
  describe('delete', () => {
    it('removes the record and returns it', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { title: 'bye' }, creator: byUser('user_u') });
      expect(await context.store().delete(todos, orgA, record.id)).toEqual({ ok: true, value: record });
      expect(await context.store().findById(todos, orgA, record.id)).toBeNull();
    });

    it('answers not_found for an unknown or already deleted id', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: {}, creator: byUser('user_u') });
      await context.store().delete(todos, orgA, record.id);
      expect(await context.store().delete(todos, orgA, record.id)).toEqual({ ok: false, reason: 'not_found' });
      expect(await context.store().delete(todos, orgA, 'never-existed')).toEqual({ ok: false, reason: 'not_found' });
    });

    it('refuses a stale expectedVersion as version_conflict and keeps the record; the current version deletes', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: {}, creator: byUser('user_u') });
      await context.store().update(todos, orgA, record.id, { data: { edited: true }, expectedVersion: 1 });
      expect(await context.store().delete(todos, orgA, record.id, { expectedVersion: 1 })).toEqual({
        ok: false,
        reason: 'version_conflict',
      });
      expect(await context.store().findById(todos, orgA, record.id)).not.toBeNull();
      expect((await context.store().delete(todos, orgA, record.id, { expectedVersion: 2 })).ok).toBe(true);
    });
  });
}

function describeTransactions(context: ContractContext): void {
  describe('transaction', () => {
    it('commits every write when the callback resolves', async () => {
      const todos = await context.freshDefinition();
      const written = await context
        .store()
        .transaction(async (store) => [
          await store.insert(todos, orgA, { data: { n: 1 }, creator: byUser('user_u') }),
          await store.insert(todos, orgA, { data: { n: 2 }, creator: byUser('user_u') }),
        ]);
      const listed = await context.store().list(todos, orgA, { filters: {}, limit: 10 });
      expect(listed.records.map((record) => record.id).sort()).toEqual(written.map((record) => record.id).sort());
    });

    it('rolls back every write when the callback throws, and rethrows', async () => {
      const todos = await context.freshDefinition();
      const failure = new Error('abort the batch');
      const attempt = context.store().transaction(async (store) => {
        await store.insert(todos, orgA, { id: 'rolled-back', data: {}, creator: byUser('user_u') });
        expect(await store.findById(todos, orgA, 'rolled-back')).not.toBeNull();
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(await context.store().findById(todos, orgA, 'rolled-back')).toBeNull();
      expect((await context.store().list(todos, orgA, { filters: {}, limit: 10 })).records).toEqual([]);
    });

    it('rolls back an update made before a failing insert', async () => {
      const todos = await context.freshDefinition();
      const record = await context
        .store()
        .insert(todos, orgA, { id: 'taken', data: { title: 'original' }, creator: byUser('user_u') });
      const attempt = context.store().transaction(async (store) => {
        await store.update(todos, orgA, record.id, { data: { title: 'changed' }, expectedVersion: 1 });
        await store.insert(todos, orgA, { id: 'taken', data: {}, creator: byUser('user_u') });
      });
      await expect(attempt).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await context.store().findById(todos, orgA, record.id)).toEqual(record);
    });

    it('runs a nested transaction inside the outer one', async () => {
      const todos = await context.freshDefinition();
      const attempt = context.store().transaction(async (outer) => {
        await outer.transaction(async (inner) =>
          inner.insert(todos, orgA, { id: 'nested', data: {}, creator: byUser('user_u') }),
        );
        throw new Error('outer fails');
      });
      await expect(attempt).rejects.toThrow('outer fails');
      expect(await context.store().findById(todos, orgA, 'nested')).toBeNull();
    });
  });
}

/** Conditional writes and transactions. */
export function describeWriteContract(context: ContractContext): void {
  describeUpdates(context);
  describeDeletes(context);
  describeTransactions(context);
}
