import { checkControl, checkCountUnchanged, checkRefusal, checkUnchanged } from '../support/expectations.js';
import {
  createOrganization,
  createTodo,
  listTodoIds,
  readTodo,
  signUp,
  todosPath,
  uniqueMarker,
} from '../support/fixtures.js';
import { disclosedAmong, recordOf, recordsOf } from '../support/responses.js';
import type { ScenarioSection } from './scenario-context.js';

/**
 * C: organization B against a todo of organization A. Every call shape is first shown to work for A on
 * A's own rows (the positive controls), then B tries it through B's own path and through A's path. Each
 * refusal must be a plain not-found that discloses nothing of the row, and A's row must read back
 * exactly as before (same version, same fields), with A's record count unchanged.
 */
export const tenantIsolationSection: ScenarioSection = {
  title: 'C: tenant isolation',
  async run({ client, recorder }) {
    const a = await signUp(client, 'tenant-a');
    const b = await signUp(client, 'tenant-b');
    const orgA = await createOrganization(client, a, uniqueMarker('e2e org A'));
    const orgB = await createOrganization(client, b, uniqueMarker('e2e org B'));
    const pathA = todosPath(orgA);
    const pathB = todosPath(orgB);

    // The unique suffix makes any appearance of the title or description in B's answers unambiguous.
    const title = `A secret plan ${uniqueMarker('t')}`;
    const description = uniqueMarker('A private description');
    const target = await createTodo(client, a, orgA, { title, description, priority: 4 });
    const completeControl = await createTodo(client, a, orgA, { title: uniqueMarker('A complete control') });
    const deleteControl = await createTodo(client, a, orgA, { title: uniqueMarker('A delete control') });
    const bOwn = await createTodo(client, b, orgB, { title: uniqueMarker('B own todo') });
    const foreign = [title, description, target._id];

    // Positive controls: the same call shapes, by allowed callers.
    const ownRead = await client.get(`${pathA}/${target._id}`, { token: a.token });
    checkControl(
      recorder,
      'C-0 CONTROL org A CAN read its own todo',
      ownRead,
      200,
      recordOf(ownRead)?.['title'] === title,
    );
    const ownList = await client.get(pathA, { token: a.token });
    checkControl(
      recorder,
      'C-0 CONTROL org A CAN list its own todo',
      ownList,
      200,
      recordsOf(ownList).some((r) => r._id === target._id),
    );
    const ownSearch = await client.post(`${pathA}/search`, { query: 'secret plan' }, { token: a.token });
    checkControl(
      recorder,
      'C-0 CONTROL org A CAN find its own todo by search',
      ownSearch,
      200,
      recordsOf(ownSearch).some((r) => r._id === target._id),
    );
    const ownUpdate = await client.put(`${pathA}/${target._id}`, { priority: 5 }, { token: a.token });
    checkControl(
      recorder,
      'C-0 CONTROL org A CAN update its own todo',
      ownUpdate,
      200,
      recordOf(ownUpdate)?.['priority'] === 5,
    );
    const ownComplete = await client.post(
      `${pathA}/${completeControl._id}/complete`,
      { note: 'control' },
      { token: a.token },
    );
    checkControl(
      recorder,
      'C-0 CONTROL org A CAN complete its own todo',
      ownComplete,
      200,
      recordOf(ownComplete)?.['status'] === 'done',
    );
    const ownDelete = await client.delete(`${pathA}/${deleteControl._id}`, { token: a.token });
    const deletedIsGone = (await readTodo(client, a, orgA, deleteControl._id)) === undefined;
    checkControl(recorder, 'C-0 CONTROL org A CAN delete its own todo (and it is gone)', ownDelete, 200, deletedIsGone);
    const ownStats = await client.post(`${pathA}/stats`, {}, { token: a.token });
    checkControl(recorder, 'C-0 CONTROL org A CAN count its own todos', ownStats, 200);
    const bRead = await client.get(`${pathB}/${bOwn._id}`, { token: b.token });
    checkControl(recorder, 'C-0 CONTROL org B CAN read its own todo through its own path', bRead, 200);

    const snapshot = await readTodo(client, a, orgA, target._id);
    const countBefore = (await listTodoIds(client, a, orgA)).length;

    // B's own path: the engine must look the id up inside B's tenant only (not found), and B's
    // collections must not contain A's row.
    const read = await client.get(`${pathB}/${target._id}`, { token: b.token });
    checkRefusal(recorder, 'C-1 org B canNOT read A’s todo through B’s path', read, {
      status: 404,
      code: 'NOT_FOUND',
      mustNotDisclose: foreign,
    });
    const list = await client.get(pathB, { token: b.token, query: [['limit', '100']] });
    const listLeaks = disclosedAmong(list, foreign);
    recorder.check(
      'C-2 org B’s list through B’s path does not contain A’s todo',
      list.status === 200 && listLeaks.length === 0,
      `status ${list.status}, ${listLeaks.length} leak(s)`,
    );
    const search = await client.post(`${pathB}/search`, { query: 'secret plan' }, { token: b.token });
    const searchLeaks = disclosedAmong(search, foreign);
    recorder.check(
      'C-3 org B’s search through B’s path does not find A’s todo',
      search.status === 200 && searchLeaks.length === 0,
      `status ${search.status}, ${searchLeaks.length} leak(s)`,
    );

    // A's path: B is not a member, so the organization itself is not found, whatever the operation.
    const viaA = await client.get(`${pathA}/${target._id}`, { token: b.token });
    checkRefusal(recorder, 'C-4 org B canNOT read A’s todo through A’s path', viaA, {
      status: 404,
      code: 'NOT_FOUND',
      mustNotDisclose: foreign,
    });
    const listViaA = await client.get(pathA, { token: b.token });
    checkRefusal(recorder, 'C-5 org B canNOT list through A’s path', listViaA, {
      status: 404,
      code: 'NOT_FOUND',
      mustNotDisclose: foreign,
    });
    const searchViaA = await client.post(`${pathA}/search`, { query: 'secret plan' }, { token: b.token });
    checkRefusal(recorder, 'C-6 org B canNOT search through A’s path', searchViaA, {
      status: 404,
      code: 'NOT_FOUND',
      mustNotDisclose: foreign,
    });
    const statsViaA = await client.post(`${pathA}/stats`, {}, { token: b.token });
    checkRefusal(recorder, 'C-7 org B canNOT count A’s todos through A’s path', statsViaA, {
      status: 404,
      code: 'NOT_FOUND',
      mustNotDisclose: foreign,
    });

    // Writes, through both paths.
    const pwned = uniqueMarker('pwned');
    for (const [via, base] of [
      ['B’s path', pathB],
      ['A’s path', pathA],
    ] as const) {
      const update = await client.put(`${base}/${target._id}`, { title: pwned }, { token: b.token });
      checkRefusal(recorder, `C-8 org B canNOT update A’s todo through ${via}`, update, {
        status: 404,
        code: 'NOT_FOUND',
        mustNotDisclose: [...foreign, pwned],
      });
      const complete = await client.post(`${base}/${target._id}/complete`, { note: pwned }, { token: b.token });
      checkRefusal(recorder, `C-9 org B canNOT complete A’s todo through ${via}`, complete, {
        status: 404,
        code: 'NOT_FOUND',
        mustNotDisclose: [...foreign, pwned],
      });
      const remove = await client.delete(`${base}/${target._id}`, { token: b.token });
      checkRefusal(recorder, `C-10 org B canNOT delete A’s todo through ${via}`, remove, {
        status: 404,
        code: 'NOT_FOUND',
        mustNotDisclose: foreign,
      });
    }

    // The effect, read back by A: the row is exactly as it was and nothing appeared or vanished.
    checkUnchanged(
      recorder,
      'C-11 A’s todo is unchanged afterwards (version and fields)',
      snapshot,
      await readTodo(client, a, orgA, target._id),
    );
    const idsAfter = await listTodoIds(client, a, orgA);
    checkCountUnchanged(recorder, 'C-12 org A’s todo count is unchanged afterwards', countBefore, idsAfter.length);
  },
};
