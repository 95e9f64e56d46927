import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  LLM_Model_Applicability,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AnyResourceDeclaration,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { referenceApplication } from '../../modules/index.js';
import {
  actor,
  actorSystem,
  functionTool,
  languageAgent,
  loadGeneratedRuntime,
} from '../agents/systems/agents-registry.fixtures.js';
import { resourceReadTool, resourceWriteTool } from '../agents/tools/resource-tools.js';
import type { FunctionTool } from '../agents/tools/function-tool.types.js';
import type { RuntimeConfiguration } from '../config/index.js';
import { createResourceCustomServiceImplementation } from '../resources/custom-service.js';
import { DeclarationValidationError } from '../resources/resources.errors.js';
import { validateDeclarations } from './application-declarations.js';
import type { BackendDomainModule } from './backend-domain-module.js';

// Each start-up refusal prints exactly one line under the header, naming the declaration and the fix; these
// tests compare the whole printed message, so a knock-on line (or a second fix) fails them.

const HEADER = "The application's declarations are invalid (1 problem):\n  - ";
const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];
const variant = (extra: Partial<ResourceOperationVariant> = {}): ResourceOperationVariant => ({
  variantType: API_CALL,
  isDefault: true,
  roles: member,
  ...extra,
});

let runtime: RuntimeConfiguration;
beforeAll(async () => {
  runtime = await loadGeneratedRuntime();
});

/** An organization-scoped `notes` resource serving READ and LIST, plus the operations given. */
function notes(
  operations: AnyResourceDeclaration['operationsConfiguration'] = {},
  overrides: Partial<AnyResourceDeclaration> = {},
): AnyResourceDeclaration {
  return {
    type: 'notes',
    displayName: 'Notes',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({ title: z.string() }),
    operationsConfiguration: { read: { variants: [variant()] }, list: { variants: [variant()] }, ...operations },
    ...overrides,
  };
}

const titleInput = z.object({ id: z.string(), title: z.string() });
const updateTool = (requiresHumanApproval: boolean) =>
  resourceWriteTool('notes', CoreResourceOperation.UPDATE, { requiresHumanApproval, inputSchema: titleInput });
const chatAgent = (functionRefs: string[]) =>
  languageAgent({
    ref: 'notes-chat',
    modelApplicability: LLM_Model_Applicability.CONVERSATION,
    capabilities: { tools: { functionRefs } },
  });

function validate(modules: BackendDomainModule[]) {
  return validateDeclarations({ name: 'startup-refusals', modules }, { runtime });
}

/** The message start-up prints for these modules (fails the test when they are accepted). */
function printed(modules: BackendDomainModule[]): string {
  try {
    validate(modules);
  } catch (error) {
    if (error instanceof DeclarationValidationError) return error.message;
    throw error;
  }
  throw new Error('expected the declarations to be refused');
}

describe('start-up accepts', () => {
  it('the reference application, with the engine modules', () => {
    const { registry, agents } = validateDeclarations(referenceApplication, { runtime });
    expect(registry.listResources().map((r) => r.type)).toContain('todos');
    expect(agents.tool('resource.todos.update')?.resourceOperation).toEqual({
      resourceType: 'todos',
      operation: 'update',
    });
  });
});

describe('start-up refuses, one line each', () => {
  it('a read tool over a resource type no module registers', () => {
    const tool = { name: 'assistant', flowsActors: { functionTools: [resourceReadTool('notes')] } };
    expect(printed([tool])).toBe(
      HEADER +
        'function tool "resource.notes.read" (module "assistant") › resourceOperation.resourceType: no resource "notes" is registered; add the module that declares it to the application, or fix the type',
    );

    expect(validate([{ name: 'notes', resources: [notes()] }, tool]).agents.tool('resource.notes.read')).toBeDefined();
  });

  it('a tool over an operation the resource does not declare', () => {
    const module = (operations: AnyResourceDeclaration['operationsConfiguration']) => ({
      name: 'notes',
      resources: [notes(operations)],
      flowsActors: { functionTools: [updateTool(false)] },
    });
    expect(printed([module({})])).toBe(
      HEADER +
        'function tool "resource.notes.update" (module "notes") › resourceOperation.operation: resource "notes" declares no operation "update" (it declares "read", "list"); ' +
        "declare it in the resource's operationsConfiguration, or build the tool over a declared one",
    );

    expect(
      validate([module({ update: { variants: [variant()] } })]).agents.tool('resource.notes.update'),
    ).toBeDefined();
  });

  it('a tool over a variant the operation does not declare', () => {
    const archivedReads: FunctionTool = {
      ...resourceReadTool('notes'),
      functionRef: 'notes.read-archived',
      resourceOperation: { resourceType: 'notes', operation: 'read', variantKey: 'archived' },
    };
    const module = (reads: ResourceOperationVariant[]) => ({
      name: 'notes',
      resources: [notes({ read: { variants: reads } })],
      flowsActors: { functionTools: [archivedReads] },
    });
    expect(printed([module([variant()])])).toBe(
      HEADER +
        'function tool "notes.read-archived" (module "notes") › resourceOperation.variantKey: operation "read" of resource "notes" has no variant "archived" (its variants: "default"); ' +
        'declare the variant, or use one of those',
    );

    expect(
      validate([module([variant(), variant({ isDefault: false, key: 'archived' })])]).agents.tool(
        'notes.read-archived',
      ),
    ).toBeDefined();
  });

  it('an approval-gated write tool over an operation the resource does not declare (before anyone is asked to approve)', () => {
    const module = (operations: AnyResourceDeclaration['operationsConfiguration']) => ({
      name: 'notes',
      resources: [notes(operations)],
      flowsActors: { functionTools: [updateTool(true)] },
    });
    expect(printed([module({})])).toBe(
      HEADER +
        'function tool "resource.notes.update" (module "notes") › resourceOperation.operation: resource "notes" declares no operation "update" (it declares "read", "list"); ' +
        "a person would approve calls that always fail; declare it in the resource's operationsConfiguration, or build the tool over a declared one",
    );

    expect(
      validate([module({ update: { variants: [variant()] } })]).agents.tool('resource.notes.update')
        ?.requiresHumanApproval,
    ).toBe(true);
  });

  it('a write tool with an "id" argument over a collection operation (an id would be taken for a record)', () => {
    const withArchiveAll = notes(
      { 'archive-all': { variants: [variant()] } },
      {
        customOperations: {
          'archive-all': {
            target: 'collection',
            requestSchema: z.object({ before: z.string() }),
            responseSchema: z.object({ archived: z.number() }),
            effect: ResourceOperationEffect.WRITE,
          },
        },
      },
    );
    const service = createResourceCustomServiceImplementation('notes', {
      customOperations: { 'archive-all': async () => ({ archived: 0 }) },
    });
    const module = (inputSchema: z.ZodObject) => ({
      name: 'notes',
      resources: [withArchiveAll],
      customServiceImplementations: [service],
      flowsActors: { functionTools: [resourceWriteTool('notes', 'archive-all', { inputSchema })] },
    });
    expect(printed([module(z.object({ id: z.string(), before: z.string() }))])).toBe(
      HEADER +
        'function tool "resource.notes.archive-all" (module "notes") › inputSchema.id: "notes.archive-all" addresses no record, ' +
        'but the tool\'s input has an "id" (a tool\'s id names the record of an instance operation); rename the field',
    );

    expect(
      validate([module(z.object({ before: z.string() }))]).agents.tool('resource.notes.archive-all'),
    ).toBeDefined();
  });

  it('an approval-gated write tool over an operation that is unimplemented or retired', () => {
    const module = (update: ResourceOperationVariant) => ({
      name: 'notes',
      resources: [notes({ update: { variants: [update] } })],
      flowsActors: { functionTools: [updateTool(true)] },
    });
    expect(printed([module(variant({ unimplemented: true }))])).toBe(
      HEADER +
        'function tool "resource.notes.update" (module "notes") › resourceOperation.operation: "notes.update" is unimplemented, so every call is refused; ' +
        'a person would approve calls that always fail; implement the operation, or remove the tool',
    );
    expect(printed([module(variant({ lifecycle: 'retired' }))])).toContain(
      '"notes.update" is retired, so every call is refused;',
    );

    expect(validate([module(variant({ lifecycle: 'deprecated' }))]).agents.tool('resource.notes.update')).toBeDefined();
  });

  it('a factory-map key that differs from the system ref', () => {
    const agents = { name: 'notes', resources: [notes()], flowsActors: { agents: [chatAgent([])] } };
    const keyed = (key: string) => ({
      name: 'assistant',
      flowsActors: {
        flowActorSystemsFactoryMap: { [key]: () => actorSystem('notes-assistant', [actor('helper', 'notes-chat')]) },
      },
    });
    expect(printed([agents, keyed('notes-helper')])).toBe(
      HEADER +
        'system "notes-assistant" (module "assistant") › flowActorSystemsFactoryMap["notes-helper"]: the key differs from the system\'s ref "notes-assistant"; ' +
        'key the factory map by the ref ({ [system.ref]: factory })',
    );

    expect(validate([agents, keyed('notes-assistant')]).agents.system('notes-assistant')?.ref).toBe('notes-assistant');
  });

  it('an agent whose provider has no adapter, with one fix only', () => {
    const module = (providerRef: string) => ({
      name: 'notes',
      flowsActors: {
        agents: [
          languageAgent({ ref: 'notes-chat', providerRef, modelApplicability: LLM_Model_Applicability.CONVERSATION }),
        ],
      },
    });
    expect(printed([module('mistral')])).toBe(
      HEADER +
        'agent "notes-chat" (module "notes") › config: Provider "mistral" has no model catalogue: the framework ships model adapters for "anthropic", "openai". Set providerRef to one of them.',
    );

    expect(validate([module('anthropic')]).agents.agent('notes-chat')?.model).toBe('claude-sonnet-5');
  });
});

describe('a refused declaration causes no knock-on line', () => {
  // A resource with a schema field named like a system field: refused on its own.
  const invalidNotes = notes(
    { update: { variants: [variant()] } },
    { schema: z.object({ title: z.string(), _id: z.string() }) },
  );
  const ownLine = 'resource "notes" › schema._id: "_id" is a system field the engine writes; rename the declared field';

  it('for the custom service of an invalid resource', () => {
    const withCustom = (schema: z.ZodObject) =>
      notes(
        { archive: { variants: [variant()] } },
        {
          schema,
          customOperations: {
            archive: {
              target: 'instance',
              requestSchema: z.object({}),
              responseSchema: z.object({ ok: z.boolean() }),
              effect: ResourceOperationEffect.WRITE,
            },
          },
        },
      );
    const service = createResourceCustomServiceImplementation('notes', {
      customOperations: { archive: async () => ({ ok: true }) },
    });
    expect(
      printed([
        {
          name: 'notes',
          resources: [withCustom(z.object({ title: z.string(), _id: z.string() }))],
          customServiceImplementations: [service],
        },
      ]),
    ).toBe(HEADER + ownLine);

    expect(() =>
      validate([
        {
          name: 'notes',
          resources: [withCustom(z.object({ title: z.string() }))],
          customServiceImplementations: [service],
        },
      ]),
    ).not.toThrow();
  });

  it('for a tool over an invalid resource, and an agent naming that tool', () => {
    const flowsActors = { functionTools: [updateTool(true)], agents: [chatAgent(['resource.notes.update'])] };
    expect(printed([{ name: 'notes', resources: [invalidNotes], flowsActors }])).toBe(HEADER + ownLine);

    const valid = notes({ update: { variants: [variant()] } });
    expect(
      validate([{ name: 'notes', resources: [valid], flowsActors }]).agents.agent('notes-chat')?.declaration
        .capabilities?.tools?.functionRefs,
    ).toEqual(['resource.notes.update']);
  });

  it('for a relationship to an invalid resource', () => {
    const projects = (schema: z.ZodObject) => notes({}, { type: 'projects', displayName: 'Projects', schema });
    const related = notes(
      {},
      {
        schema: z.object({ title: z.string(), projectId: z.string() }),
        relationships: [{ field: 'projectId', resourceType: 'projects', kind: 'belongs-to' }],
      },
    );
    expect(
      printed([{ name: 'notes', resources: [projects(z.object({ name: z.string(), _id: z.string() })), related] }]),
    ).toBe(
      HEADER + 'resource "projects" › schema._id: "_id" is a system field the engine writes; rename the declared field',
    );

    expect(() =>
      validate([{ name: 'notes', resources: [projects(z.object({ name: z.string() })), related] }]),
    ).not.toThrow();
  });

  it('for an agent naming a refused tool', () => {
    const badTool = functionTool('notes.lookup', z.string());
    expect(
      printed([
        {
          name: 'notes',
          resources: [notes()],
          flowsActors: { functionTools: [badTool], agents: [chatAgent(['notes.lookup'])] },
        },
      ]),
    ).toBe(
      HEADER +
        'function tool "notes.lookup" (module "notes") › inputSchema: is a Zod string schema; declare it with z.object({ ... }): a tool\'s arguments are one object',
    );
  });
});
