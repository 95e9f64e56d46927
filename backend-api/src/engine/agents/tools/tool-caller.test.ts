import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  LLM_Model,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type ActorSystem,
} from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { referenceApplication } from '../../../modules/index.js';
import { eventsOf, postStream, useAssistantBackend } from '../../../testing/agents.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { textReply, toolCallsReply } from '../../../testing/llm-stubs/index.js';
import { useTestDatabase } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import { createResourceCustomServiceImplementation } from '../../resources/custom-service.js';
import { actor, flowsModule, languageAgent, organizationActorSystem } from '../systems/agents-registry.fixtures.js';
import type { FunctionTool, FunctionToolExecutionContext } from './function-tool.types.js';

// ---------------------------------------------------------------------------------------------------------------
// A resource only managers may touch, and a probe tool that tries every entry point its context exposes to reach
// one record of it: the members of that context are enumerated, so a new entry point fails the test until tried.
// ---------------------------------------------------------------------------------------------------------------

const VAULT = 'vault-notes';
const SECRET = 'the-vault-combination-4711';
const OTHER_SECRET = 'the-other-combination-0815';
const API_CALL = ResourceOperationVariantType.API_CALL;
const manager = [CORE_ORG_ROLES.ORG_MANAGER];

const vaultNotes = defineResource({
  type: VAULT,
  displayName: 'Vault notes',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ title: z.string().max(200), secret: z.string().max(200) }),
  customOperations: {
    reveal: {
      target: 'instance',
      requestSchema: z.object({}),
      responseSchema: z.object({ secret: z.string() }),
      effect: ResourceOperationEffect.READ,
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    [CoreResourceOperation.READ]: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: manager },
        { variantType: ResourceOperationVariantType.INTERNAL, key: 'audit', isDefault: false, roles: manager },
      ],
    },
    [CoreResourceOperation.UPDATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    [CoreResourceOperation.DELETE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    [CoreResourceOperation.LIST]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    [CoreResourceOperation.SEARCH]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    reveal: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
  },
});

const vaultImplementation = createResourceCustomServiceImplementation(VAULT, {
  customOperations: { reveal: async ({ record }) => ({ secret: String(record?.['secret']) }) },
});

/** What one attempt gave the tool: a value (as JSON) or the code of the refusal. */
type Attempt = { returned: string } | { refused: string };

/** Every way the probe tries to reach the record `id`, named by the entry point it uses (`call`, `records.get`, ...). */
function attemptsOn(ctx: FunctionToolExecutionContext, id: string): [entry: string, run: () => Promise<unknown>][] {
  const notes = ctx.records(VAULT);
  return [
    ['call', () => ctx.call(VAULT, CoreResourceOperation.READ, { id })],
    ['call', () => ctx.call(VAULT, CoreResourceOperation.READ, { id, variant: 'audit' })],
    ['call', () => ctx.call(VAULT, 'reveal', { id })],
    ['call', () => ctx.call(VAULT, CoreResourceOperation.LIST, { list: { limit: 20 } })],
    ['call', () => ctx.call(VAULT, CoreResourceOperation.SEARCH, { input: { query: 'combination' } })],
    ['call', () => ctx.call(VAULT, CoreResourceOperation.UPDATE, { id, input: { title: 'Touched by call' } })],
    ['records', async () => ctx.records(VAULT)],
    ['records.get', () => notes.get(id)],
    ['records.list', () => notes.list({ limit: 20 })],
    ['records.search', () => notes.search('combination')],
    ['records.update', () => notes.update(id, { title: 'Touched by records' })],
    ['records.create', () => notes.create({ title: 'Copy', secret: 'a new one' })],
    ['serves', async () => ctx.serves(VAULT, CoreResourceOperation.READ)],
    ['records.delete', () => notes.delete(id)],
  ];
}

/** The callable members of the context (and of its record helpers), by the names used in {@link attemptsOn}. */
function entryPointsOf(ctx: FunctionToolExecutionContext): string[] {
  const callable = (value: object, prefix: string) =>
    Object.entries(value)
      .filter(([, member]) => typeof member === 'function')
      .map(([name]) => `${prefix}${name}`);
  return [...callable(ctx, ''), ...callable(ctx.records(VAULT), 'records.')].sort();
}

const probeTool: FunctionTool = {
  functionRef: 'vault.probe',
  description: 'Tries to read one vault note by every means it has.',
  inputSchema: z.object({ id: z.string().min(1).max(64) }),
  async execute(args, ctx) {
    const { id } = args as { id: string };
    const attempts: { entry: string; result: Attempt }[] = [];
    for (const [entry, run] of attemptsOn(ctx, id)) {
      try {
        attempts.push({ entry, result: { returned: JSON.stringify((await run()) ?? null) } });
      } catch (error) {
        attempts.push({
          entry,
          result: { refused: error instanceof Error && 'code' in error ? String(error.code) : 'THREW' },
        });
      }
    }
    return {
      entryPoints: entryPointsOf(ctx),
      prototypeIsPlain: Object.getPrototypeOf(ctx) === Object.prototype,
      dataMembers: Object.entries(ctx)
        .filter(([, member]) => typeof member !== 'function')
        .map(([name]) => name)
        .sort(),
      // The identity it holds is frozen: a tool cannot rewrite who the caller dispatches as.
      identityWritable:
        Reflect.set(ctx.auth, 'userId', 'someone-else') || Reflect.set(ctx.auth.credential, 'type', 'api_key'),
      attempts,
    };
  },
};

const PROBE_AGENT = languageAgent({
  ref: 'vault.probe.agent',
  model: LLM_Model.CLAUDE_SONNET_5,
  capabilities: { tools: { functionRefs: [probeTool.functionRef] } },
});

/** An ORGANIZATIONS-scoped assistant every member may talk to (the vault's own roles still apply to its tool). */
function vaultSystem(): ActorSystem {
  return organizationActorSystem('vault-probe', [actor('vault-probe.operator', PROBE_AGENT.ref)]);
}

const application = defineBackendApplication({
  ...referenceApplication,
  modules: [
    ...referenceApplication.modules,
    { name: 'vault', resources: [vaultNotes], customServiceImplementations: [vaultImplementation] },
    flowsModule('vault-probe', {
      agents: [PROBE_AGENT],
      functionTools: [probeTool],
      flowActorSystemsFactoryMap: { 'vault-probe': vaultSystem },
    }),
  ],
});

interface ProbeReport {
  entryPoints: string[];
  prototypeIsPlain: boolean;
  dataMembers: string[];
  identityWritable: boolean;
  attempts: { entry: string; result: Attempt }[];
}

describe('what a function tool can reach', () => {
  const db = useTestDatabase();
  const assistant = useAssistantBackend(db, 'vault-owner', { application });
  let member: TestUser;
  let managerUser: TestUser;

  beforeAll(async () => {
    const { t, owner, orgId } = assistant;
    member = await signUp(t.api, 'vault-member');
    managerUser = await signUp(t.api, 'vault-manager');
    await addMember(t.api, owner, orgId, member, CORE_ORG_ROLES.ORG_MEMBER);
    await addMember(t.api, owner, orgId, managerUser, CORE_ORG_ROLES.ORG_MANAGER);
  });

  async function storeNote(owner: TestUser, orgId: string, secret = SECRET): Promise<string> {
    const res = await assistant.t.api
      .post(`/api/v1/organizations/${orgId}/vault-notes`)
      .set(owner.auth)
      .send({ title: 'Safe', secret });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data._id as string;
  }

  async function probe(caller: TestUser, orgId: string, id: string, callId: string): Promise<ProbeReport> {
    assistant.stub.enqueue(
      toolCallsReply([{ id: callId, name: 'vault_probe', arguments: { id } }]),
      textReply('Done.'),
    );
    const res = await postStream(
      assistant.t.api,
      `/api/v1/organizations/${orgId}/flows-actors/systems/vault-probe/turns`,
      caller.auth,
      { message: 'Open the vault.' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [result] = eventsOf(res.turn, 'tool_result');
    expect(result?.outcome.ok, JSON.stringify(result)).toBe(true);
    return (result?.outcome.ok ? result.outcome.result : undefined) as ProbeReport;
  }

  /** The entry points whose result carried the secret. */
  const leaked = (report: ProbeReport, secret = SECRET) =>
    report.attempts
      .filter(({ result }) => 'returned' in result && result.returned.includes(secret))
      .map(({ entry }) => entry);

  it('tries every entry point the context exposes, and the context exposes nothing but data besides them', async () => {
    const id = await storeNote(assistant.owner, assistant.orgId);
    const report = await probe(member, assistant.orgId, id, 'enumerate');
    expect(report.entryPoints).toEqual([
      'call',
      'records',
      'records.create',
      'records.delete',
      'records.get',
      'records.list',
      'records.search',
      'records.update',
      'serves',
    ]);
    expect([...new Set(report.attempts.map(({ entry }) => entry))].sort()).toEqual(report.entryPoints);
    expect(report.prototypeIsPlain).toBe(true);
    expect(
      report.dataMembers.filter(
        (name) => !['auth', 'executionId', 'organizationId', 'requestId', 'signal'].includes(name),
      ),
    ).toEqual([]);
    expect(report.identityWritable).toBe(false);
  });

  it('refuses a member without the role on every entry point: nothing of the record reaches the tool, and it is unchanged', async () => {
    const id = await storeNote(assistant.owner, assistant.orgId);
    const report = await probe(member, assistant.orgId, id, 'member-probe');
    expect(leaked(report)).toEqual([]);
    for (const { entry, result } of report.attempts) {
      if (entry === 'records' || entry === 'serves') continue;
      expect({ entry, result }).toEqual({ entry, result: { refused: 'FORBIDDEN' } });
    }
    const stored = await assistant.t.api
      .get(`/api/v1/organizations/${assistant.orgId}/vault-notes/${id}`)
      .set(assistant.owner.auth);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ title: 'Safe', secret: SECRET });
  });

  it('gives a manager of the same organization the record through each reading entry point (positive control)', async () => {
    const id = await storeNote(assistant.owner, assistant.orgId);
    const report = await probe(managerUser, assistant.orgId, id, 'manager-probe');
    expect(leaked(report).sort()).toEqual([
      'call',
      'call',
      'call',
      'call',
      'call',
      'call',
      'records.get',
      'records.list',
      'records.search',
      'records.update',
    ]);
    const deleted = await assistant.t.api
      .get(`/api/v1/organizations/${assistant.orgId}/vault-notes/${id}`)
      .set(assistant.owner.auth);
    expect(deleted.status).toBe(404);
  });

  it('finds nothing of another organization’s record for a manager of this one, through any entry point', async () => {
    const stranger = await signUp(assistant.t.api, 'vault-stranger');
    const otherOrg = await createOrganization(assistant.t.api, stranger, 'Elsewhere');
    const id = await storeNote(stranger, otherOrg, OTHER_SECRET);
    const report = await probe(managerUser, assistant.orgId, id, 'cross-tenant-probe');
    expect(leaked(report, OTHER_SECRET)).toEqual([]);
    for (const { entry, result } of report.attempts.filter(({ entry }) =>
      ['records.get', 'records.update', 'records.delete'].includes(entry),
    )) {
      expect({ entry, result }).toEqual({ entry, result: { refused: 'NOT_FOUND' } });
    }
    const stored = await assistant.t.api.get(`/api/v1/organizations/${otherOrg}/vault-notes/${id}`).set(stranger.auth);
    expect(stored.body.data).toMatchObject({ title: 'Safe', secret: OTHER_SECRET });
  });
});
