import { readFileSync } from 'node:fs';
import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ExecutionContext_ExecutionType,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Logger } from '../logging/index.js';
import type { UserPrincipal } from '../identity/principal.types.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import {
  DISPATCH_STEP_NAMES,
  DispatchCall,
  dispatchSteps,
  type DispatchStepDependencies,
  type DispatchStepName,
} from './dispatch-steps.js';
import type { DispatchRequest } from './dispatch.types.js';
import type { ExecutionContext } from './execution-context.js';
import { OperationAdmission } from './operation-admission.service.js';
import { OperationDispatcher } from './operation-dispatcher.service.js';
import { ResourcesRegistry } from './resources-registry.service.js';
import { RoleHierarchyResolver } from '../identity/role-hierarchy.service.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];
const manager = [CORE_ORG_ROLES.ORG_MANAGER];

const notes = defineResource({
  type: 'notes',
  displayName: 'Notes',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ title: z.string().max(100) }),
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: member }] },
    [CoreResourceOperation.READ]: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: member },
        { variantType: API_CALL, key: 'people', roles: member, policies: { deny: [{ kind: 'machine' }] } },
      ],
    },
    [CoreResourceOperation.UPDATE]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: manager, requiresReauthentication: true }],
    },
    [CoreResourceOperation.DELETE]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: manager, lifecycle: 'retired' }],
    },
    [CoreResourceOperation.LIST]: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: member, rateLimit: { points: 5, durationSeconds: 60 } },
      ],
    },
  },
});

const registry = ResourcesRegistry.fromApplication({
  name: 'dispatch-steps',
  modules: [{ name: 'notes', resources: [notes] }],
});
const operation = (core: CoreResourceOperation): CompiledOperation => registry.getOperationFromPath(`notes.${core}`);

const principal: UserPrincipal = {
  kind: 'user',
  userId: 'u-1',
  authorizationVersion: 1,
  credential: { type: 'access_token', id: 't-1' },
};

function contextWith(roles: readonly string[]): ExecutionContext {
  return {
    executionType: ExecutionContext_ExecutionType.USER,
    initiatorIds: { userId: 'u-1', organizationId: 'o-1' },
    initiatorRoles: new RoleHierarchyResolver().expand(roles),
    tenant: { kind: 'organization', organizationId: 'o-1' },
    surface: 'rest',
    requestId: 'r-1',
    callTimestamp: '2026-01-01T00:00:00.000Z',
    principal,
  };
}

function requestFor(core: CoreResourceOperation, extra: Partial<DispatchRequest> = {}): DispatchRequest {
  return {
    operation: operation(core),
    principal,
    surface: 'rest',
    requestId: 'r-1',
    contextIds: { organizationId: 'o-1' },
    ...extra,
  };
}

/** A stored note as the pipeline returns it, with a field the contract does not name. */
const storedNote = {
  _id: 'n-1',
  title: 'Hello',
  internalNote: 'not in the contract',
  organizationId: 'o-1',
  createdByUserId: 'u-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 3,
};

/** Steps over fakes: a member's context, a store answering one note (with a field the contract does not name). */
function fakes(roles: readonly string[] = member) {
  const deps = {
    contexts: { buildContext: vi.fn(async () => contextWith(roles)) },
    admission: new OperationAdmission(new RoleHierarchyResolver()),
    rateLimits: { chargeOperation: vi.fn(async () => undefined), chargePolicy: vi.fn(async () => undefined) },
    services: {
      executeCoreOperation: vi.fn(
        async (
          _type: string,
          _op: CoreResourceOperation,
          _ctx: ExecutionContext,
          id?: string,
          _input?: unknown,
          options?: { gate?: () => Promise<void> },
        ) => {
          await options?.gate?.();
          return { ...storedNote, _id: id ?? 'n-new' };
        },
      ),
      executeCustomOperation: vi.fn(async () => ({})),
    },
    stepUp: { consume: vi.fn(async () => false) },
  } satisfies DispatchStepDependencies;
  const steps = new Map(dispatchSteps(deps).map((step) => [step.name, step]));
  const run = (name: DispatchStepName, call: DispatchCall) => steps.get(name)?.run(call);
  return { deps, run };
}

/** A call on which the steps before `upTo` ran, with the given roles. */
async function callBefore(upTo: DispatchStepName, request: DispatchRequest, roles: readonly string[] = member) {
  const { run, deps } = fakes(roles);
  const call = new DispatchCall(request);
  for (const name of DISPATCH_STEP_NAMES.slice(0, DISPATCH_STEP_NAMES.indexOf(upTo))) await run(name, call);
  return { call, run, deps };
}

describe('the dispatch path as named steps', () => {
  it('runs its steps in the documented order (the dispatcher’s doc comment names them as the list does)', () => {
    const { deps } = fakes();
    expect(dispatchSteps(deps).map((step) => step.name)).toEqual([...DISPATCH_STEP_NAMES]);
    const source = readFileSync(new URL('./operation-dispatcher.service.ts', import.meta.url), 'utf8');
    const documented = /^ \* (lifecycle → .*)\.$/m.exec(source)?.[1]?.split(' → ');
    expect(documented).toEqual([...DISPATCH_STEP_NAMES]);
  });

  it('lifecycle: refuses a retired operation and lets a stable one through', async () => {
    const { run } = fakes();
    expect(() => run('lifecycle', new DispatchCall(requestFor(CoreResourceOperation.DELETE)))).toThrow(
      expect.objectContaining({ code: 'OPERATION_RETIRED', reason: 'lifecycle_blocked' }),
    );
    expect(run('lifecycle', new DispatchCall(requestFor(CoreResourceOperation.READ)))).toBeUndefined();
  });

  it('credential: refuses a request without a principal and establishes the one it carries', async () => {
    const { run } = fakes();
    expect(() =>
      run('credential', new DispatchCall(requestFor(CoreResourceOperation.READ, { principal: null }))),
    ).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED', reason: 'no_credential' }));
    const call = new DispatchCall(requestFor(CoreResourceOperation.READ));
    await run('credential', call);
    expect(call.principal).toBe(principal);
  });

  it('context: builds the execution context from the principal, the addressed ids, the surface and the request id', async () => {
    const { call, run, deps } = await callBefore(
      'context',
      requestFor(CoreResourceOperation.READ, { surface: 'tool', requestId: 'r-9' }),
    );
    await run('context', call);
    expect(deps.contexts.buildContext).toHaveBeenCalledWith(
      principal,
      call.operation,
      { organizationId: 'o-1' },
      { surface: 'tool', requestId: 'r-9' },
    );
    expect(call.context.tenant).toEqual({ kind: 'organization', organizationId: 'o-1' });
  });

  it('authorize: refuses a member an operation for managers, and lets a manager through', async () => {
    const asMember = await callBefore(
      'authorize',
      requestFor(CoreResourceOperation.UPDATE, { id: 'n-1', body: { title: 'x' } }),
    );
    expect(() => asMember.run('authorize', asMember.call)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', reason: 'role_refused' }),
    );
    const asManager = await callBefore(
      'authorize',
      requestFor(CoreResourceOperation.UPDATE, { id: 'n-1', body: { title: 'x' } }),
      manager,
    );
    expect(asManager.run('authorize', asManager.call)).toBeUndefined();
  });

  it('policy: refuses a caller its deny list names, and admits the caller it does not name', async () => {
    const people = registry.getOperationFromPath('notes.read#people');
    const machine = {
      kind: 'machine',
      executionType: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE,
      clientId: 'k-1',
      organizationId: 'o-1',
      roles: member,
      credential: { type: 'api_key', id: 'k-1' },
    } as const;
    const denied = await callBefore(
      'policy',
      requestFor(CoreResourceOperation.READ, { operation: people, principal: machine }),
    );
    expect(() => denied.run('policy', denied.call)).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', reason: 'principal_denied' }),
    );
    const admitted = await callBefore('policy', requestFor(CoreResourceOperation.READ, { operation: people }));
    expect(admitted.run('policy', admitted.call)).toBeUndefined();
  });

  it('rate-policy: charges an operation that declares a policy, and spends no await on one that does not', async () => {
    const listed = await callBefore('rate-policy', requestFor(CoreResourceOperation.LIST));
    await listed.run('rate-policy', listed.call);
    expect(listed.deps.rateLimits.chargeOperation).toHaveBeenCalledWith(listed.call.operation, listed.call.context);
    const read = await callBefore('rate-policy', requestFor(CoreResourceOperation.READ, { id: 'n-1' }));
    expect(read.run('rate-policy', read.call)).toBeUndefined();
    expect(read.deps.rateLimits.chargeOperation).not.toHaveBeenCalled();
  });

  it('input: refuses a field the contract does not declare and an id that cannot name a record; accepts a valid body', async () => {
    const { run } = fakes();
    const undeclared = new DispatchCall(
      requestFor(CoreResourceOperation.CREATE, { body: { title: 'a', owner: 'someone' } }),
    );
    expect(() => run('input', undeclared)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', reason: 'input_invalid' }),
    );
    const badId = new DispatchCall(requestFor(CoreResourceOperation.READ, { id: '../etc' }));
    expect(() => run('input', badId)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    const valid = new DispatchCall(requestFor(CoreResourceOperation.CREATE, { body: { title: 'a' } }));
    await run('input', valid);
    expect(valid.input).toEqual({ body: { title: 'a' } });
  });

  it('service: hands the pipeline a step-up gate that refuses a call without a proof', async () => {
    const { call, run } = await callBefore(
      'service',
      requestFor(CoreResourceOperation.UPDATE, { id: 'n-1', body: { title: 'x' } }),
      manager,
    );
    await expect(run('service', call)).rejects.toMatchObject({ code: 'FORBIDDEN', reason: 'step_up_required' });
    const read = await callBefore('service', requestFor(CoreResourceOperation.READ, { id: 'n-1' }));
    await read.run('service', read.call);
    expect(read.call.raw).toMatchObject({ _id: 'n-1', title: 'Hello' });
  });

  it('projection: drops what the response contract does not name, says where, and keeps the version', async () => {
    const { call, run } = await callBefore('projection', requestFor(CoreResourceOperation.READ, { id: 'n-1' }));
    await run('projection', call);
    expect(call.result.data).not.toHaveProperty('internalNote');
    expect(call.result).toMatchObject({ data: { _id: 'n-1', title: 'Hello' }, version: 3 });
    expect(call.result.withheld).toEqual([{ path: '*', reason: 'undeclared' }]);
  });

  it('projection: refuses a result whose declared field has the wrong type, naming the field as invalid', async () => {
    const { call, run } = await callBefore('projection', requestFor(CoreResourceOperation.READ, { id: 'n-1' }));
    call.raw = { ...storedNote, title: { text: 'Hello' } };
    expect(() => run('projection', call)).toThrow(
      expect.objectContaining({
        code: 'CONTRACT_VIOLATION',
        violation: { missing: [], invalid: [{ field: 'title', expected: 'string' }] },
      }),
    );
  });

  it('a step that reads what an earlier step did not establish fails loudly, naming that step', () => {
    const { run } = fakes();
    expect(() => run('authorize', new DispatchCall(requestFor(CoreResourceOperation.READ)))).toThrow('"context" step');
  });
});

describe('OperationDispatcher', () => {
  function dispatcherWith(roles: readonly string[]) {
    const { deps } = fakes(roles);
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
    const logger: Logger = { debug: record, info: record, warn: record, error: record, child: () => logger };
    const dispatcher = new OperationDispatcher(
      deps.contexts,
      deps.admission,
      deps.rateLimits,
      deps.services,
      deps.stepUp,
      logger,
      { check: async () => undefined },
    );
    return { dispatcher, deps, lines };
  }

  it('logs a refusal once, naming the step that refused, and runs no step after it', async () => {
    const { dispatcher, deps, lines } = dispatcherWith(member);
    await expect(
      dispatcher.dispatch(requestFor(CoreResourceOperation.UPDATE, { id: 'n-1', body: { title: 'x' } })),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(lines).toEqual([
      {
        message: 'dispatch refused',
        fields: {
          step: 'authorize',
          operation: 'notes.update',
          surface: 'rest',
          requestId: 'r-1',
          code: 'FORBIDDEN',
          reason: 'role_refused',
        },
      },
    ]);
    expect(deps.services.executeCoreOperation).not.toHaveBeenCalled();
  });

  it('returns the projected result of an admitted call and logs nothing', async () => {
    const { dispatcher, lines } = dispatcherWith(member);
    await expect(dispatcher.dispatch(requestFor(CoreResourceOperation.READ, { id: 'n-1' }))).resolves.toEqual({
      data: expect.objectContaining({ _id: 'n-1', title: 'Hello' }),
      version: 3,
      withheld: [{ path: '*', reason: 'undeclared' }],
    });
    expect(lines).toEqual([]);
  });
});
