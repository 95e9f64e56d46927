import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AnyResourceDeclaration,
  type ResourceServerInstance,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { referenceApplication } from '../../modules/index.js';
import type { BackendDomainModule } from '../bootstrap/backend-domain-module.js';
import { createResourceCustomServiceImplementation } from './custom-service.js';
import { DeclarationValidationError } from './resources.errors.js';
import { ResourcesRegistry } from './resources-registry.service.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];

/** A valid organization-scoped resource; tests override one part at a time. */
function notes(overrides: Partial<AnyResourceDeclaration> = {}): AnyResourceDeclaration {
  const base: AnyResourceDeclaration = {
    type: 'notes',
    displayName: 'Notes',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({ title: z.string(), body: z.string().optional() }),
    operationsConfiguration: {
      [CoreResourceOperation.READ]: { variants: [{ variantType: API_CALL, isDefault: true, roles: member }] },
      [CoreResourceOperation.LIST]: {
        variants: [{ variantType: API_CALL, isDefault: true, roles: member, filters: ['title'] }],
      },
    },
  };
  return { ...base, ...overrides };
}

function compile(modules: BackendDomainModule[], resourceServerInstances?: ResourceServerInstance[]) {
  return () =>
    ResourcesRegistry.fromApplication({
      name: 'test',
      modules,
      ...(resourceServerInstances ? { resourceServerInstances } : {}),
    });
}

function problemsOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DeclarationValidationError);
    return (error as Error).message;
  }
  throw new Error('expected the declarations to be refused');
}

describe('declaration validation at start', () => {
  it('accepts the reference application and a minimal valid resource', () => {
    expect(
      compile([...referenceApplication.modules], [...(referenceApplication.resourceServerInstances ?? [])]),
    ).not.toThrow();
    expect(compile([{ name: 'm', resources: [notes()] }])).not.toThrow();
  });

  it('refuses a role that can never match the resource scope, naming the fix', () => {
    const message = problemsOf(
      compile([
        {
          name: 'm',
          resources: [
            notes({
              operationsConfiguration: {
                read: { variants: [{ variantType: API_CALL, isDefault: true, roles: [CORE_APP_ROLES.APP_USER] }] },
              },
            }),
          ],
        },
      ]),
    );
    expect(message).toContain(
      'resource "notes" › operationsConfiguration.read.variants[0].roles[0]: APP_USER can never match on a ORGANIZATIONS resource; use one of ORG_ADMIN, ORG_MANAGER, ORG_MEMBER',
    );
  });

  it('refuses an operation with two default variants', () => {
    const variants = [
      { variantType: API_CALL, isDefault: true, roles: member },
      { variantType: API_CALL, isDefault: true, roles: member, key: 'other' },
    ];
    expect(
      problemsOf(compile([{ name: 'm', resources: [notes({ operationsConfiguration: { read: { variants } } })] }])),
    ).toContain('operationsConfiguration.read.variants: exactly one variant must have isDefault: true');
  });

  it('refuses schemas that would let undeclared data through', () => {
    const message = problemsOf(
      compile([
        {
          name: 'm',
          resources: [
            notes({
              schema: z.object({ title: z.string(), meta: z.looseObject({}), blob: z.unknown(), at: z.date() }),
            }),
          ],
        },
      ]),
    );
    expect(message).toContain('schema.meta: loose objects');
    expect(message).toContain('schema.blob: z.unknown() lets undeclared data through; declare the shape');
    expect(message).toContain('schema.at: Date is not JSON; use z.iso.datetime()');
  });

  it('refuses a declared field named like a system field', () => {
    expect(
      problemsOf(
        compile([
          { name: 'm', resources: [notes({ schema: z.object({ title: z.string(), organizationId: z.string() }) })] },
        ]),
      ),
    ).toContain(
      'schema.organizationId: "organizationId" is a system field the engine writes; rename the declared field',
    );
  });

  it('refuses a filter on a field that is not a scalar of the schema', () => {
    const operationsConfiguration = {
      list: { variants: [{ variantType: API_CALL, isDefault: true, roles: member, filters: ['missing'] }] },
    };
    expect(problemsOf(compile([{ name: 'm', resources: [notes({ operationsConfiguration })] }]))).toContain(
      'operationsConfiguration.list.variants[0].filters[0]: "missing" must be a text, number or boolean field of the schema',
    );
  });

  it('refuses a custom operation without a handler, and a handler without a declaration', () => {
    const withCustom = notes({
      customOperations: {
        archive: {
          target: 'instance',
          requestSchema: z.object({}),
          responseSchema: z.object({ ok: z.boolean() }),
          effect: ResourceOperationEffect.WRITE,
        },
      },
      operationsConfiguration: { archive: { variants: [{ variantType: API_CALL, isDefault: true, roles: member }] } },
    });
    expect(problemsOf(compile([{ name: 'm', resources: [withCustom] }]))).toContain(
      'resource "notes" › customOperations.archive: has no handler; add it with createResourceCustomServiceImplementation or mark its variants unimplemented',
    );
    const stray = createResourceCustomServiceImplementation('notes', {
      customOperations: { publish: async () => ({}) },
    });
    expect(problemsOf(compile([{ name: 'm', resources: [notes()], customServiceImplementations: [stray] }]))).toContain(
      'module "m" › customServiceImplementations[0].customOperations.publish: "notes" declares no custom operation "publish"',
    );
  });

  it('refuses a relationship to a resource that is not registered', () => {
    const related = notes({
      schema: z.object({ title: z.string(), projectId: z.string() }),
      relationships: [{ field: 'projectId', resourceType: 'projects', kind: 'belongs-to' }],
    });
    expect(problemsOf(compile([{ name: 'm', resources: [related] }]))).toContain(
      'relationships[0]: no resource "projects" is registered; register its module or fix the type',
    );
  });

  it('refuses the same type registered by two modules', () => {
    expect(
      problemsOf(
        compile([
          { name: 'a', resources: [notes()] },
          { name: 'b', resources: [notes()] },
        ]),
      ),
    ).toContain('resource "notes" › type: registered twice (module "b"); each type belongs to one module');
  });

  it('refuses a URL segment the engine serves itself', () => {
    expect(
      problemsOf(
        compile([
          {
            name: 'm',
            resources: [
              notes({ primaryScope: ResourcePrimaryScope.APPLICATION, type: 'auth', operationsConfiguration: {} }),
            ],
          },
        ]),
      ),
    ).toContain('"auth" is served by the engine; set another urlSegment');
  });

  it('refuses an MCP exposure on an instance that is not declared', () => {
    const operationsConfiguration = {
      read: {
        variants: [
          { variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true, servers: ['nowhere'] } },
        ],
      },
    };
    expect(problemsOf(compile([{ name: 'm', resources: [notes({ operationsConfiguration })] }]))).toContain(
      'operationsConfiguration.read.mcp.servers[0]: no MCP resource server instance "nowhere"; declare it in resourceServerInstances',
    );
  });

  it('refuses an MCP tool that would need a step-up proof (a tool call cannot carry one)', () => {
    const operationsConfiguration = {
      read: {
        variants: [
          {
            variantType: API_CALL,
            isDefault: true,
            roles: member,
            requiresReauthentication: true,
            mcp: { exposed: true },
          },
        ],
      },
    };
    expect(problemsOf(compile([{ name: 'm', resources: [notes({ operationsConfiguration })] }]))).toContain(
      'operationsConfiguration.read.variants[0].mcp: a tool call cannot carry a step-up proof',
    );
  });

  it('reports malformed plain data with its path', () => {
    const operationsConfiguration = { read: { variants: [{ variantType: API_CALL, isDefault: true, roles: [] }] } };
    expect(problemsOf(compile([{ name: 'm', resources: [notes({ operationsConfiguration })] }]))).toContain(
      'operationsConfiguration.read.variants[0].roles: at least one role',
    );
  });

  it('lists every problem at once', () => {
    const bad = notes({ schema: z.object({ title: z.any(), _id: z.string() }) });
    const error = (() => {
      try {
        compile([{ name: 'm', resources: [bad] }])();
      } catch (e) {
        return e as DeclarationValidationError;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['schema.title', 'schema._id']));
  });
});
