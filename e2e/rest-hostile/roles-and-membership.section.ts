import { checkControl, checkRefusal, checkUnchanged } from '../support/expectations.js';
import {
  addMember,
  changeMemberRole,
  createOrganization,
  createTodo,
  listMembers,
  logIn,
  readTodo,
  removeMember,
  signUp,
  todosPath,
  uniqueMarker,
} from '../support/fixtures.js';
import type { ScenarioSection } from './scenario-context.js';

/**
 * R, M, D: roles inside one organization. A member below DELETE's role (ORG_MANAGER) is refused; a
 * removed member's old token stops working; a demoted manager loses both the old token and the right to
 * delete. Every refusal follows a control proving the same call worked for an allowed caller (or for the
 * same caller before the change), and the admin reads the rows back afterwards.
 */
export const rolesAndMembershipSection: ScenarioSection = {
  title: 'R/M/D: roles, removal and demotion',
  async run({ client, recorder }) {
    const admin = await signUp(client, 'roles-admin');
    const member = await signUp(client, 'roles-member');
    const manager = await signUp(client, 'roles-manager');
    const leaver = await signUp(client, 'roles-leaver');
    const demoted = await signUp(client, 'roles-demoted');
    const org = await createOrganization(client, admin, uniqueMarker('e2e roles'));
    const base = todosPath(org);
    await addMember(client, admin, org, member, 'ORG_MEMBER');
    await addMember(client, admin, org, manager, 'ORG_MANAGER');
    await addMember(client, admin, org, leaver, 'ORG_MEMBER');
    await addMember(client, admin, org, demoted, 'ORG_MANAGER');

    // R: ORG_MEMBER deleting (DELETE needs ORG_MANAGER).
    const keepTitle = uniqueMarker('keep me');
    const keep = await createTodo(client, member, org, { title: keepTitle });
    const managerControl = await createTodo(client, member, org, { title: uniqueMarker('manager control') });
    const managerDelete = await client.delete(`${base}/${managerControl._id}`, { token: manager.token });
    const managerDeleted = (await readTodo(client, admin, org, managerControl._id)) === undefined;
    checkControl(
      recorder,
      'R-0 CONTROL an ORG_MANAGER CAN delete a todo (and it is gone)',
      managerDelete,
      200,
      managerDeleted,
    );
    const memberRead = await client.get(`${base}/${keep._id}`, { token: member.token });
    checkControl(recorder, 'R-0 CONTROL the ORG_MEMBER CAN read the todo it will try to delete', memberRead, 200);
    const keepSnapshot = await readTodo(client, admin, org, keep._id);
    const memberDelete = await client.delete(`${base}/${keep._id}`, { token: member.token });
    checkRefusal(recorder, 'R-1 an ORG_MEMBER canNOT delete (403 role_refused)', memberDelete, {
      status: 403,
      code: 'FORBIDDEN',
      reason: 'role_refused',
      mustNotDisclose: [keepTitle],
    });
    checkUnchanged(
      recorder,
      'R-2 the todo is still there, unchanged, after the refused delete',
      keepSnapshot,
      await readTodo(client, admin, org, keep._id),
    );

    // M: the removed member's outstanding token.
    const leaverBefore = await client.get(base, { token: leaver.token });
    checkControl(
      recorder,
      'M-0 CONTROL the member CAN list the organization’s todos before removal',
      leaverBefore,
      200,
    );
    const oldLeaverToken = leaver.token;
    await removeMember(client, admin, org, leaver);
    const leaverAfter = await client.get(base, { token: oldLeaverToken });
    checkRefusal(recorder, 'M-1 the removed member’s old token is refused (401)', leaverAfter, {
      status: 401,
      code: 'UNAUTHENTICATED',
      mustNotDisclose: [keepTitle],
    });
    recorder.check(
      'M-1 the 401 carries a WWW-Authenticate challenge',
      /^Bearer\b/i.test(leaverAfter.headers.get('www-authenticate') ?? ''),
      'missing or not a Bearer challenge',
    );
    const leaverRead = await client.get(`${base}/${keep._id}`, { token: oldLeaverToken });
    checkRefusal(recorder, 'M-2 the removed member’s old token canNOT read a todo it read before', leaverRead, {
      status: 401,
      code: 'UNAUTHENTICATED',
      mustNotDisclose: [keepTitle],
    });
    const membersAfterRemoval = await listMembers(client, admin, org);
    recorder.check(
      'M-3 the membership is gone from the member list (admin’s view)',
      !membersAfterRemoval.some((m) => m.userId === leaver.userId),
      'the removed user is still listed',
    );
    // Signing in again gives a valid identity, but no way back into the organization.
    await logIn(client, leaver);
    const leaverMe = await client.get('/api/v1/auth/me', { token: leaver.token });
    checkControl(recorder, 'M-4 CONTROL the removed user CAN still sign in and read their own account', leaverMe, 200);
    const leaverFresh = await client.get(base, { token: leaver.token });
    checkRefusal(
      recorder,
      'M-5 with a fresh token the removed user canNOT list the organization’s todos (404)',
      leaverFresh,
      { status: 404, code: 'NOT_FOUND', mustNotDisclose: [keepTitle] },
    );

    // D: the demoted manager.
    const demotedControl = await createTodo(client, admin, org, { title: uniqueMarker('demotion control') });
    const survivorTitle = uniqueMarker('survives demotion');
    const survivor = await createTodo(client, admin, org, { title: survivorTitle });
    const demotedDelete = await client.delete(`${base}/${demotedControl._id}`, { token: demoted.token });
    const demotedDeleted = (await readTodo(client, admin, org, demotedControl._id)) === undefined;
    checkControl(
      recorder,
      'D-0 CONTROL the manager CAN delete a todo before the demotion (and it is gone)',
      demotedDelete,
      200,
      demotedDeleted,
    );
    const survivorSnapshot = await readTodo(client, admin, org, survivor._id);
    const oldDemotedToken = demoted.token;
    await changeMemberRole(client, admin, org, demoted, 'ORG_MEMBER');
    const staleDelete = await client.delete(`${base}/${survivor._id}`, { token: oldDemotedToken });
    checkRefusal(recorder, 'D-1 the demoted manager’s old token is refused (401)', staleDelete, {
      status: 401,
      code: 'UNAUTHENTICATED',
      mustNotDisclose: [survivorTitle],
    });
    await logIn(client, demoted);
    const demotedRead = await client.get(`${base}/${survivor._id}`, { token: demoted.token });
    checkControl(recorder, 'D-2 CONTROL the demoted user CAN still read the todo as a member', demotedRead, 200);
    const freshDelete = await client.delete(`${base}/${survivor._id}`, { token: demoted.token });
    checkRefusal(recorder, 'D-3 the demoted user canNOT delete any more (403 role_refused)', freshDelete, {
      status: 403,
      code: 'FORBIDDEN',
      reason: 'role_refused',
    });
    checkUnchanged(
      recorder,
      'D-4 the todo is still there, unchanged, after both refused deletes',
      survivorSnapshot,
      await readTodo(client, admin, org, survivor._id),
    );
    const demotedRole = (await listMembers(client, admin, org)).find((m) => m.userId === demoted.userId)?.role;
    recorder.check(
      'D-5 the member list shows the demoted user as ORG_MEMBER',
      demotedRole === 'ORG_MEMBER',
      `role is ${demotedRole ?? 'absent'}`,
    );
  },
};
