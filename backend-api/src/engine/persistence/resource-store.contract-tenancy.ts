import { describe, expect, it } from 'vitest';
import {
  application,
  byUser,
  ids,
  orgA,
  orgB,
  userU,
  userV,
  type ContractContext,
} from './resource-store.contract-fixtures.js';
import type { ResourceStoreDefinition, StoredRecord, TenantScope } from './resource-store.js';

/** Tenant isolation for every method, each refusal beside the owner's positive control. */
export function describeTenancyContract(context: ContractContext): void {
  const insertIn = (todos: ResourceStoreDefinition, scope: TenantScope, title: string): Promise<StoredRecord> =>
    context.store().insert(todos, scope, { data: { title, status: 'open' }, creator: byUser('user_u') });

  describe('tenant isolation', () => {
    it('locate: names the tenant of a record whatever the scope, null for an unknown id', async () => {
      const todos = await context.freshDefinition();
      const inOrg = await insertIn(todos, orgA, 'a');
      const ofUser = await insertIn(todos, userU, 'b');
      const inApp = await insertIn(todos, application, 'c');
      expect(await context.store().locate(todos, inOrg.id)).toEqual(orgA);
      expect(await context.store().locate(todos, ofUser.id)).toEqual(userU);
      expect(await context.store().locate(todos, inApp.id)).toEqual(application);
      expect(await context.store().locate(todos, 'no-such-record')).toBeNull();
    });

    it('findById: another organization gets null, the owner gets the record', async () => {
      const todos = await context.freshDefinition();
      const record = await insertIn(todos, orgA, 'secret plan');
      expect(await context.store().findById(todos, orgB, record.id)).toBeNull();
      expect(await context.store().findById(todos, orgA, record.id)).toEqual(record);
    });

    it("list: another organization's page is empty, the owner's page holds the record", async () => {
      const todos = await context.freshDefinition();
      const record = await insertIn(todos, orgA, 'secret plan');
      expect((await context.store().list(todos, orgB, { filters: {}, limit: 10 })).records).toEqual([]);
      expect(ids((await context.store().list(todos, orgA, { filters: {}, limit: 10 })).records)).toEqual([record.id]);
    });

    it('search: another organization finds nothing, the owner finds the record', async () => {
      const todos = await context.freshDefinition();
      const record = await insertIn(todos, orgA, 'secret plan');
      expect((await context.store().search(todos, orgB, { text: 'secret', filters: {}, limit: 10 })).records).toEqual(
        [],
      );
      expect(
        ids((await context.store().search(todos, orgA, { text: 'secret', filters: {}, limit: 10 })).records),
      ).toEqual([record.id]);
    });

    it('countBy: another organization counts nothing, the owner counts its record', async () => {
      const todos = await context.freshDefinition();
      await insertIn(todos, orgA, 'secret plan');
      expect([...(await context.store().countBy(todos, orgB, 'status', {})).entries()]).toEqual([]);
      expect([...(await context.store().countBy(todos, orgA, 'status', {})).entries()]).toEqual([['open', 1]]);
    });

    it('update: another organization gets not_found and changes nothing, the owner updates', async () => {
      const todos = await context.freshDefinition();
      const record = await insertIn(todos, orgA, 'secret plan');
      const foreign = await context
        .store()
        .update(todos, orgB, record.id, { data: { title: 'defaced' }, expectedVersion: 1 });
      expect(foreign).toEqual({ ok: false, reason: 'not_found' });
      expect((await context.store().findById(todos, orgA, record.id))?.data).toEqual(record.data);
      const own = await context
        .store()
        .update(todos, orgA, record.id, { data: { title: 'revised' }, expectedVersion: 1 });
      expect(own.ok).toBe(true);
    });

    it('delete: another organization gets not_found and the record stays, the owner deletes', async () => {
      const todos = await context.freshDefinition();
      const record = await insertIn(todos, orgA, 'secret plan');
      expect(await context.store().delete(todos, orgB, record.id)).toEqual({ ok: false, reason: 'not_found' });
      expect(await context.store().findById(todos, orgA, record.id)).not.toBeNull();
      expect((await context.store().delete(todos, orgA, record.id)).ok).toBe(true);
      expect(await context.store().findById(todos, orgA, record.id)).toBeNull();
    });

    it("user scope: another user sees nothing of a user's record, the user does", async () => {
      const notes = await context.freshDefinition({ scope: 'user' });
      const record = await insertIn(notes, userU, 'diary');
      expect(await context.store().findById(notes, userV, record.id)).toBeNull();
      expect((await context.store().list(notes, userV, { filters: {}, limit: 10 })).records).toEqual([]);
      expect(await context.store().update(notes, userV, record.id, { data: {}, expectedVersion: 1 })).toEqual({
        ok: false,
        reason: 'not_found',
      });
      expect(await context.store().delete(notes, userV, record.id)).toEqual({ ok: false, reason: 'not_found' });
      expect(await context.store().findById(notes, userU, record.id)).toMatchObject({
        userId: 'user_u',
        organizationId: null,
      });
    });

    it('application scope sees application records only, not organization or user records', async () => {
      const todos = await context.freshDefinition({ scope: 'application' });
      const shared = await insertIn(todos, application, 'shared');
      const orgRecord = await insertIn(todos, orgA, 'org');
      const userRecord = await insertIn(todos, userU, 'user');
      expect(ids((await context.store().list(todos, application, { filters: {}, limit: 10 })).records)).toEqual([
        shared.id,
      ]);
      expect(await context.store().findById(todos, application, orgRecord.id)).toBeNull();
      expect(await context.store().findById(todos, application, userRecord.id)).toBeNull();
      expect([...(await context.store().countBy(todos, application, 'status', {})).entries()]).toEqual([['open', 1]]);
    });

    it('organization scope sees neither application nor user records', async () => {
      const todos = await context.freshDefinition();
      await insertIn(todos, application, 'shared');
      await insertIn(todos, userU, 'user');
      const own = await insertIn(todos, orgA, 'org');
      expect(ids((await context.store().list(todos, orgA, { filters: {}, limit: 10 })).records)).toEqual([own.id]);
    });

    it('a scope without its id is refused before any query', async () => {
      const todos = await context.freshDefinition();
      await insertIn(todos, orgA, 'plan');
      const blank = { kind: 'organization', organizationId: '' } as const;
      await expect(context.store().list(todos, blank, { filters: {}, limit: 10 })).rejects.toThrow(/non-empty id/);
    });
  });

  describe('owner-only constraint', () => {
    it('findById: a record created by another user is not found, the creator finds it', async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { title: 'mine' }, creator: byUser('user_u') });
      expect(await context.store().findById(todos, orgA, record.id, { createdByUserId: 'user_v' })).toBeNull();
      expect(await context.store().findById(todos, orgA, record.id, { createdByUserId: 'user_u' })).toEqual(record);
    });

    it("list and search: only the caller's own records", async () => {
      const todos = await context.freshDefinition();
      const mine = await context.store().insert(todos, orgA, { data: { title: 'report' }, creator: byUser('user_u') });
      await context.store().insert(todos, orgA, { data: { title: 'report' }, creator: byUser('user_v') });
      const constraint = { createdByUserId: 'user_u' };
      expect(ids((await context.store().list(todos, orgA, { filters: {}, limit: 10, constraint })).records)).toEqual([
        mine.id,
      ]);
      expect(
        ids(
          (await context.store().search(todos, orgA, { text: 'report', filters: {}, limit: 10, constraint })).records,
        ),
      ).toEqual([mine.id]);
    });

    it("update and delete: another user's record answers not_found (not a conflict), the creator's works", async () => {
      const todos = await context.freshDefinition();
      const record = await context.store().insert(todos, orgA, { data: { title: 'mine' }, creator: byUser('user_u') });
      const other = { createdByUserId: 'user_v' };
      expect(
        await context.store().update(todos, orgA, record.id, { data: {}, expectedVersion: 1, constraint: other }),
      ).toEqual({ ok: false, reason: 'not_found' });
      expect(await context.store().delete(todos, orgA, record.id, { constraint: other })).toEqual({
        ok: false,
        reason: 'not_found',
      });
      const own = { createdByUserId: 'user_u' };
      expect(
        (
          await context
            .store()
            .update(todos, orgA, record.id, { data: { title: 'edited' }, expectedVersion: 1, constraint: own })
        ).ok,
      ).toBe(true);
      expect((await context.store().delete(todos, orgA, record.id, { constraint: own })).ok).toBe(true);
    });
  });
}
