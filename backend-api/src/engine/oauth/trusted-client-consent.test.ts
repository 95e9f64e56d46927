import { ResourcePrimaryScope } from '@wildo/shared-lib';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptInvitation,
  addMember,
  createOrganization,
  invite,
  signUp,
  type TestUser,
} from '../../testing/identity.fixtures.js';
import {
  callTool,
  callToolOk,
  delegatedToken,
  handshake,
  listToolNames,
  MCP_BACKEND_OPTIONS,
  MEMBER_TOOLS,
  MCP_PATH,
  organizationApiKey,
  policyDenied,
  rpc,
  toolError,
} from '../../testing/mcp.fixtures.js';
import {
  authorizationRequest,
  consent,
  createTrustedClient,
  exchangeCode,
  pkcePair,
  startAuthorization,
} from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { PrincipalDirectory } from '../identity/principal-directory.js';
import type { UserPrincipal } from '../identity/principal.types.js';
import { mcpProbesApplication } from '../mcp/mcp-probes.fixtures.js';
import type { ExecutionContextCreator } from '../resources/execution-context-creator.service.js';

const database = useTestDatabase();

/** Runs the authorization code flow with a client for a person who is not prompted; returns the Bearer header value. */
async function promptlessToken(t: TestBackend, person: TestUser, clientId: string): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const started = await startAuthorization(t.api, person, authorizationRequest(clientId, challenge));
  expect(started.kind).toBe('redirect');
  const code = new URL(started.redirect_to as string).searchParams.get('code') as string;
  const token = await exchangeCode(t.api, { client_id: clientId, code, code_verifier: verifier });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return `Bearer ${token.body.access_token as string}`;
}

/** A person with an organization of their own holding one todo. */
async function personWithOrganization(t: TestBackend, label: string) {
  const person = await signUp(t.api, label);
  const organizationId = await createOrganization(t.api, person, `${label} Co`);
  const todo = await t.api
    .post(`/api/v1/organizations/${organizationId}/todos`)
    .set(person.auth)
    .send({ title: `${label} payroll` });
  expect(todo.status).toBe(201);
  return { person, organizationId, todoId: todo.body.data._id as string };
}

describe('consent bypass through forced membership', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
  });
  afterAll(() => t.close());

  async function attackerWithTrustedClient() {
    const { person: attacker, organizationId } = await personWithOrganization(t, 'attacker');
    return { attacker, organizationId, clientId: await createTrustedClient(t.api, attacker, organizationId) };
  }

  it('refuses every step of the attack: the "added" victim is only invited and the trusted client must ask them', async () => {
    const victim = await personWithOrganization(t, 'victim');
    const { attacker, organizationId: attackerOrg, clientId } = await attackerWithTrustedClient();
    // 1. The attacker "adds" the victim to their organization: an invitation, nothing more.
    const added = await t.api
      .post(`/api/v1/organizations/${attackerOrg}/members`)
      .set(attacker.auth)
      .send({ email: victim.person.email, role: 'ORG_MEMBER' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ status: 'pending', organizationId: attackerOrg });
    const members = await t.api.get(`/api/v1/organizations/${attackerOrg}/members`).set(attacker.auth);
    expect(members.body.data.map((m: { userId: string }) => m.userId)).toEqual([attacker.userId]);
    const snapshot = await t.backend.container
      .get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory)
      .getUser(victim.person.userId);
    expect([...(snapshot?.memberships.keys() ?? [])]).toEqual([victim.organizationId]);
    // 2. The victim is sent to the attacker's trusted client: they are asked, no code is issued.
    const started = await startAuthorization(
      t.api,
      victim.person,
      authorizationRequest(clientId, pkcePair().challenge),
    );
    expect(started.kind).toBe('consent');
    expect(started.redirect_to).toBeUndefined();
    // 3. The attacker cannot answer the prompt in the victim's place.
    const hijack = await t.api
      .post('/api/v1/oauth/authorize/decision')
      .set(attacker.auth)
      .send({ consent_token: started.consent_token, decision: 'approve' });
    expect(hijack.status).toBe(400);
    // 4. With their own credentials the attacker's client reaches nothing of the victim's organization over MCP.
    const attackerKey = await organizationApiKey(t.api, attacker, attackerOrg);
    expect(
      toolError(await callTool(t.api, MCP_PATH, attackerKey, 'todos__list', { organizationId: victim.organizationId })),
    ).toEqual({ error: 'not_found', tool: 'todos__list' });
    const attackerToken = await promptlessToken(t, attacker, clientId);
    const write = await callTool(t.api, MCP_PATH, attackerToken, 'todos__create', {
      organizationId: victim.organizationId,
      title: 'planted',
    });
    expect(toolError(write)).toEqual({ error: 'not_found', tool: 'todos__create' });
    const victimTodos = await t.api.get(`/api/v1/organizations/${victim.organizationId}/todos`).set(victim.person.auth);
    expect(victimTodos.body.data.map((todo: { _id: string }) => todo._id)).toEqual([victim.todoId]);
  });

  it('skips the prompt for a member who accepted, with a token that works in the client’s organization only', async () => {
    const member = await personWithOrganization(t, 'member');
    const { attacker: admin, organizationId: clientOrg, clientId } = await attackerWithTrustedClient();
    await addMember(t.api, admin, clientOrg, member.person, 'ORG_MEMBER');
    const token = await promptlessToken(t, member.person, clientId);
    expect(decodeJwt(token.slice(7))).toMatchObject({ sub: member.person.userId, azp: clientId, org: clientOrg });
    expect((await listToolNames(t.api, MCP_PATH, token)).sort()).toEqual(MEMBER_TOOLS);
    // Positive control: the client's organization, addressed or by default (the only one the token reaches).
    const created = await callToolOk(t.api, MCP_PATH, token, 'todos__create', {
      organizationId: clientOrg,
      title: 'team task',
    });
    const listed = (await callToolOk(t.api, MCP_PATH, token, 'todos__list')).data as { _id: string }[];
    expect(listed.map((todo) => todo._id)).toContain(created._id);
    expect(listed.map((todo) => todo._id)).not.toContain(member.todoId);
    // The member's own organization is out of reach: not found, for reads and writes alike.
    for (const [name, args] of [
      ['todos__list', {}],
      ['todos__read', { todoId: member.todoId }],
      ['todos__create', { title: 'planted' }],
    ] as const) {
      const result = await callTool(t.api, MCP_PATH, token, name, { ...args, organizationId: member.organizationId });
      expect(toolError(result)).toEqual({ error: 'not_found', tool: name });
    }
    const ownTodos = await t.api.get(`/api/v1/organizations/${member.organizationId}/todos`).set(member.person.auth);
    expect(ownTodos.body.data.map((todo: { _id: string }) => todo._id)).toEqual([member.todoId]);
  });

  it('keeps a token obtained at a prompt unrestricted', async () => {
    const person = await personWithOrganization(t, 'prompted');
    const { clientId } = await attackerWithTrustedClient();
    const { verifier, challenge } = pkcePair();
    // Not a member of the client's organization: asked, and approving is the person's own decision.
    const redirect = await consent(t.api, person.person, authorizationRequest(clientId, challenge));
    const token = await exchangeCode(t.api, {
      client_id: clientId,
      code: redirect.searchParams.get('code') as string,
      code_verifier: verifier,
    });
    expect(decodeJwt(token.body.access_token)).not.toHaveProperty('org');
    const result = await callToolOk(t.api, MCP_PATH, `Bearer ${token.body.access_token as string}`, 'todos__read', {
      organizationId: person.organizationId,
      todoId: person.todoId,
    });
    expect(result._id).toBe(person.todoId);
  });

  it('keeps a token unrestricted when a remembered consent (given at a prompt) covers the request', async () => {
    const person = await personWithOrganization(t, 'remembered');
    const { attacker: admin, organizationId: clientOrg, clientId } = await attackerWithTrustedClient();
    await consent(t.api, person.person, authorizationRequest(clientId, pkcePair().challenge), {
      decision: 'approve',
      remember: true,
    });
    await addMember(t.api, admin, clientOrg, person.person, 'ORG_MEMBER');
    const token = await promptlessToken(t, person.person, clientId);
    expect(decodeJwt(token.slice(7))).not.toHaveProperty('org');
    await callToolOk(t.api, MCP_PATH, token, 'todos__read', {
      organizationId: person.organizationId,
      todoId: person.todoId,
    });
  });

  it('stops a restricted token when its person leaves the organization', async () => {
    const member = await personWithOrganization(t, 'leaver');
    const { attacker: admin, organizationId: clientOrg, clientId } = await attackerWithTrustedClient();
    await addMember(t.api, admin, clientOrg, member.person, 'ORG_MEMBER');
    const token = await promptlessToken(t, member.person, clientId);
    await callToolOk(t.api, MCP_PATH, token, 'todos__list', { organizationId: clientOrg });
    expect((await t.api.delete(`/api/v1/organizations/${clientOrg}/members/me`).set(member.person.auth)).status).toBe(
      200,
    );
    const after = await handshake(
      t.api,
      MCP_PATH,
      rpc('tools/call', { name: 'todos__list', arguments: { organizationId: clientOrg } }),
      token,
    );
    expect(after.status).toBe(401);
  });

  it('prompts a person who was invited but has not accepted, and prompts again after they decline', async () => {
    const person = await personWithOrganization(t, 'invitee');
    const { attacker: admin, organizationId: clientOrg, clientId } = await attackerWithTrustedClient();
    const invitationId = await invite(t.api, admin, clientOrg, person.person.email, 'ORG_MEMBER');
    expect(
      (await startAuthorization(t.api, person.person, authorizationRequest(clientId, pkcePair().challenge))).kind,
    ).toBe('consent');
    expect((await t.api.post(`/api/v1/invitations/${invitationId}/decline`).set(person.person.auth)).status).toBe(200);
    expect(
      (await startAuthorization(t.api, person.person, authorizationRequest(clientId, pkcePair().challenge))).kind,
    ).toBe('consent');
  });

  it('skips the prompt once the invitation is accepted (positive control of the previous test)', async () => {
    const person = await personWithOrganization(t, 'joiner');
    const { attacker: admin, organizationId: clientOrg, clientId } = await attackerWithTrustedClient();
    await acceptInvitation(
      t.api,
      person.person,
      await invite(t.api, admin, clientOrg, person.person.email, 'ORG_MEMBER'),
    );
    expect(
      (await startAuthorization(t.api, person.person, authorizationRequest(clientId, pkcePair().challenge))).kind,
    ).toBe('redirect');
  });
});

describe('a token restricted to one organization', () => {
  it('neither lists nor calls application- and user-scoped tools; the same person’s consented token does', async () => {
    await using t = await createTestBackend(database(), { ...MCP_BACKEND_OPTIONS, application: mcpProbesApplication });
    const admin = await signUp(t.api, 'admin');
    const clientOrg = await createOrganization(t.api, admin, 'Probes');
    const clientId = await createTrustedClient(t.api, admin, clientOrg);
    const restricted = await promptlessToken(t, admin, clientId);
    const unrestricted = await delegatedToken(t.api, admin);
    expect(await listToolNames(t.api, MCP_PATH, unrestricted)).toEqual(
      expect.arrayContaining(['bulletins__list', 'memos__list', 'probes__create']),
    );
    await callToolOk(t.api, MCP_PATH, unrestricted, 'memos__list');
    await callToolOk(t.api, MCP_PATH, unrestricted, 'bulletins__list');
    const listed = await listToolNames(t.api, MCP_PATH, restricted);
    expect(listed).toContain('probes__create');
    expect(listed).not.toContain('bulletins__list');
    expect(listed).not.toContain('memos__list');
    await callToolOk(t.api, MCP_PATH, restricted, 'probes__create', { label: 'inside', organizationId: clientOrg });
    for (const name of ['bulletins__list', 'memos__list']) {
      expect(policyDenied(await callTool(t.api, MCP_PATH, restricted, name))).toEqual({
        error: 'policy_denied',
        tool: name,
        reason: 'principal_not_allowed',
      });
    }
  });
});

describe('the execution context creator (REST, MCP, agent turns and function tools build contexts through it)', () => {
  it('keeps a restricted principal to its organization on every surface; an unrestricted one reaches all', async () => {
    await using t = await createTestBackend(database());
    const person = await signUp(t.api, 'restricted');
    const inside = await createOrganization(t.api, person, 'Inside');
    const outside = await createOrganization(t.api, person, 'Outside');
    const snapshot = await t.backend.container
      .get<PrincipalDirectory>(SAAS_SERVICE_TYPES.PrincipalDirectory)
      .getUser(person.userId);
    const creator = t.backend.container.get<ExecutionContextCreator>(SAAS_SERVICE_TYPES.ExecutionContextCreator);
    const unrestricted: UserPrincipal = {
      kind: 'user',
      userId: person.userId,
      authorizationVersion: snapshot?.authorizationVersion ?? 0,
      credential: { type: 'delegated_token', id: 'jti-1', authorizedParty: 'client-1' },
    };
    const restricted: UserPrincipal = { ...unrestricted, organizationRestriction: inside };
    const organization = { scope: ResourcePrimaryScope.ORGANIZATIONS };
    for (const surface of ['rest', 'mcp', 'tool'] as const) {
      const meta = { surface, requestId: `r-${surface}` };
      expect((await creator.buildContext(restricted, organization, { organizationId: inside }, meta)).tenant).toEqual({
        kind: 'organization',
        organizationId: inside,
      });
      await expect(
        creator.buildContext(restricted, organization, { organizationId: outside }, meta),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      for (const scope of [ResourcePrimaryScope.USER, ResourcePrimaryScope.APPLICATION]) {
        await expect(creator.buildContext(restricted, { scope }, {}, meta)).rejects.toMatchObject({
          code: 'FORBIDDEN',
          reason: 'principal_not_allowed',
        });
        expect((await creator.buildContext(unrestricted, { scope }, {}, meta)).principal).toBe(unrestricted);
      }
      expect(
        (await creator.buildContext(unrestricted, organization, { organizationId: outside }, meta)).tenant,
      ).toEqual({ kind: 'organization', organizationId: outside });
    }
  });
});
