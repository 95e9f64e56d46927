import {
  CORE_ORG_ROLES,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  ResourceServerKind,
  type AnyResourceDeclaration,
  type ResourceOperationLifecycle,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { referenceApplication } from '../../modules/index.js';
import type { BackendApplicationDefinition, BackendDomainModule } from '../bootstrap/backend-domain-module.js';
import { createSilentLogger, type Logger } from '../logging/index.js';
import { withEngineModules } from '../bootstrap/engine-modules.js';
import { createResourceCustomServiceImplementation } from '../resources/custom-service.js';
import { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { buildExposureReport } from '../bootstrap/exposure-report.js';
import { describeExposure, fieldsOf, type ExposureReport, type OperationExposure } from './exposure-report.js';
import type { McpCustomTool } from './mcp-tools.types.js';
import { McpToolCatalogue } from './tool-catalogue.service.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];
const SUPPORT = { ref: 'support', kind: ResourceServerKind.MCP, displayName: 'Support', description: 'Support tools.' };

/** The default variant of an operation, exposed on the default catalogue unless overridden. */
function variant(overrides: Partial<ResourceOperationVariant> = {}): ResourceOperationVariant {
  return { variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true }, ...overrides };
}

/** An organization-scoped `notes` resource; tests replace its operations. */
function notes(
  operationsConfiguration: AnyResourceDeclaration['operationsConfiguration'],
  extra: Partial<AnyResourceDeclaration> = {},
): AnyResourceDeclaration {
  return {
    type: 'notes',
    displayName: 'Notes',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({
      title: z.string().min(1),
      priority: z.number().int().default(3),
      checklist: z.array(z.object({ label: z.string(), done: z.boolean() })).optional(),
      owner: z.string().nullable().optional(),
    }),
    operationsConfiguration,
    ...extra,
  };
}

function app(modules: BackendDomainModule[], withSupport = false): BackendApplicationDefinition {
  return { name: 'test', modules, ...(withSupport ? { resourceServerInstances: [SUPPORT] } : {}) };
}

function entry(report: ExposureReport, servicePath: string): OperationExposure {
  const found = report.operations.find((o) => o.servicePath === servicePath);
  if (!found) throw new Error(`no operation ${servicePath} in the report`);
  return found;
}

/** Tool names the report places on a catalogue (listed or not). */
function toolsOn(report: ExposureReport, catalogue: string): string[] {
  return [...report.operations, ...report.moduleTools]
    .filter((e) => e.catalogues.includes(catalogue))
    .map((e) => e.tool)
    .sort();
}

function customTool(name: string, servers?: string[]): McpCustomTool {
  return {
    descriptor: {
      name,
      description: 'A module tool.',
      inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    },
    ...(servers ? { servers } : {}),
    call: async () => ({ content: [] }),
  };
}

describe('exposure report of the reference application', () => {
  const report = buildExposureReport(referenceApplication);

  it('lists the todo tools on the default catalogue', () => {
    expect(toolsOn(report, 'default')).toEqual([
      'todos__complete',
      'todos__create',
      'todos__delete',
      'todos__list',
      'todos__read',
      'todos__search',
      'todos__update',
    ]);
  });

  it('lists the stats and knowledge tools on the support catalogue only', () => {
    expect(toolsOn(report, 'support')).toEqual([
      'knowledge-documents__read',
      'knowledge-documents__search',
      'todos__stats',
    ]);
    expect(entry(report, 'todos.stats')).toMatchObject({ status: 'exposed', catalogues: ['support'] });
  });

  it('names every catalogue with its endpoint', () => {
    expect(report.catalogues).toEqual([
      { name: 'default', endpoint: '/mcp' },
      { name: 'support', endpoint: '/mcp/support' },
      { name: 'travel-desk', endpoint: '/mcp/travel-desk' },
    ]);
  });

  it('reports the engine modules’ operations too, as not opted in', () => {
    expect(entry(report, 'organization-api-keys.create')).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'not-opted-in' }],
      scope: 'ORGANIZATIONS',
    });
    expect(entry(report, 'application-oauth-clients.create#dynamic-registration')).toMatchObject({
      variant: 'dynamic-registration',
      status: 'not-exposed',
    });
  });

  it('reports every declared operation variant once, in a stable order', () => {
    const registry = ResourcesRegistry.fromApplication(withEngineModules(referenceApplication));
    expect(report.operations.map((o) => o.servicePath).sort()).toEqual(
      registry
        .listOperations()
        .map((o) => o.servicePath)
        .sort(),
    );
    const keys = report.operations.map((o) => `${o.resourceType} ${o.operation} ${o.variant}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('shows what a model sends to an instance tool: the record id, the organization and the declared input', () => {
    expect(entry(report, 'todos.complete').sends).toEqual([
      { path: 'note', type: 'string', required: false },
      { path: 'organizationId', type: 'string', required: false },
      { path: 'todoId', type: 'string', required: true },
    ]);
  });

  it('shows nested and nullable paths with their JSON types', () => {
    const sends = entry(report, 'todos.create').sends ?? [];
    expect(sends).toContainEqual({ path: 'checklist[].label', type: 'string', required: true });
    expect(sends).toContainEqual({ path: 'priority', type: 'integer', required: false });
    expect(sends).toContainEqual({ path: 'assignee', type: 'string | null', required: false });
  });

  it('shows what a model is shown, pages included', () => {
    const shown = entry(report, 'todos.list').shown ?? [];
    expect(shown).toContainEqual({ path: 'data[].title', type: 'string', required: true });
    expect(shown).toContainEqual({ path: 'nextCursor', type: 'string | null', required: true });
  });
});

describe('operations the catalogue leaves out', () => {
  it('reports an operation without mcp.exposed as not opted in, with no tool contract', () => {
    const report = buildExposureReport(
      app([{ name: 'm', resources: [notes({ read: { variants: [variant({ mcp: { exposed: false } })] } })] }]),
    );
    const read = entry(report, 'notes.read');
    expect(read).toMatchObject({
      status: 'not-exposed',
      catalogues: [],
      reasons: [{ code: 'not-opted-in', detail: 'mcp.exposed is not set' }],
    });
    expect(read).not.toHaveProperty('sends');
  });

  it('reports an exposed non-default variant as not the default variant', () => {
    const report = buildExposureReport(
      app([
        {
          name: 'm',
          resources: [notes({ read: { variants: [variant(), variant({ isDefault: false, key: 'admin' })] } })],
        },
      ]),
    );
    expect(entry(report, 'notes.read#admin')).toMatchObject({
      variant: 'admin',
      status: 'not-exposed',
      reasons: [{ code: 'not-default-variant' }],
    });
    expect(entry(report, 'notes.read')).toMatchObject({ status: 'exposed', catalogues: ['default'] });
  });

  it('reports an acknowledged unimplemented operation', () => {
    const report = buildExposureReport(
      app([{ name: 'm', resources: [notes({ read: { variants: [variant({ unimplemented: true })] } })] }]),
    );
    expect(entry(report, 'notes.read')).toMatchObject({ status: 'not-exposed', reasons: [{ code: 'unimplemented' }] });
  });

  it('reports an internal default variant as not URL-bearing', () => {
    const report = buildExposureReport(
      app([
        {
          name: 'm',
          resources: [notes({ read: { variants: [variant({ variantType: ResourceOperationVariantType.INTERNAL })] } })],
        },
      ]),
    );
    expect(entry(report, 'notes.read')).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'not-url-bearing' }],
    });
  });

  it('reports a declared field that clashes with the record id argument', () => {
    const resource = notes(
      { archive: { variants: [variant()] } },
      {
        customOperations: {
          archive: {
            target: 'instance',
            requestSchema: z.object({ noteId: z.string() }),
            responseSchema: z.object({ ok: z.boolean() }),
            effect: ResourceOperationEffect.WRITE,
          },
        },
      },
    );
    const impl = createResourceCustomServiceImplementation('notes', {
      customOperations: { archive: async () => ({ ok: true }) },
    });
    const report = buildExposureReport(
      app([{ name: 'm', resources: [resource], customServiceImplementations: [impl] }]),
    );
    expect(entry(report, 'notes.archive')).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'argument-clash' }],
    });
  });

  it('reports a contract that has no JSON Schema form', () => {
    const resource = notes(
      { remind: { variants: [variant()] } },
      {
        customOperations: {
          remind: {
            target: 'collection',
            requestSchema: z.object({ at: z.date() }),
            responseSchema: z.object({ ok: z.boolean() }),
            effect: ResourceOperationEffect.WRITE,
          },
        },
      },
    );
    const impl = createResourceCustomServiceImplementation('notes', {
      customOperations: { remind: async () => ({ ok: true }) },
    });
    const report = buildExposureReport(
      app([{ name: 'm', resources: [resource], customServiceImplementations: [impl] }]),
    );
    expect(entry(report, 'notes.remind')).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'schema-not-representable' }],
    });
  });

  it('reports an operation whose only instance the catalogue does not serve as an unknown instance', () => {
    // Application validation refuses this; a catalogue built for another definition is the only way to reach it.
    const declared = withEngineModules(
      app(
        [
          {
            name: 'm',
            resources: [notes({ read: { variants: [variant({ mcp: { exposed: true, servers: ['support'] } })] } })],
          },
        ],
        true,
      ),
    );
    const registry = ResourcesRegistry.fromApplication(declared);
    const served = { ...declared, resourceServerInstances: [] };
    const report = describeExposure(registry, served, new McpToolCatalogue(registry, served, createSilentLogger()));
    expect(entry(report, 'notes.read')).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'unknown-instance', catalogue: 'support' }],
    });
  });
});

describe('tools contributed by modules', () => {
  const read = { read: { variants: [variant()] } };

  it('reports a malformed tool name', () => {
    const report = buildExposureReport(app([{ name: 'm', mcpTools: [customTool('look up!')] }]));
    expect(report.moduleTools).toMatchObject([
      { module: 'm', tool: 'look up!', status: 'not-exposed', reasons: [{ code: 'malformed-name' }] },
    ]);
  });

  it('reports a name a resource tool already takes on the catalogue', () => {
    const report = buildExposureReport(
      app([{ name: 'm', resources: [notes(read)], mcpTools: [customTool('notes__read')] }]),
    );
    expect(report.moduleTools[0]).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'duplicate-name', catalogue: 'default' }],
    });
    expect(entry(report, 'notes.read')).toMatchObject({ status: 'exposed', catalogues: ['default'] });
  });

  it('reports a tool left off one catalogue by a name clash as exposed on the others, with the clash', () => {
    const extra = { ...SUPPORT, ref: 'extra', displayName: 'Extra' };
    const onSupport = { read: { variants: [variant({ mcp: { exposed: true, servers: ['support'] } })] } };
    const application = {
      ...app([
        { name: 'm', resources: [notes(onSupport)], mcpTools: [customTool('notes__read', ['support', 'extra'])] },
      ]),
      resourceServerInstances: [SUPPORT, extra],
    };
    expect(buildExposureReport(application).moduleTools[0]).toMatchObject({
      status: 'exposed',
      catalogues: ['extra'],
      reasons: [{ code: 'duplicate-name', catalogue: 'support' }],
    });
  });

  it('reports an instance the application does not declare', () => {
    const report = buildExposureReport(app([{ name: 'm', mcpTools: [customTool('lookup', ['ghost'])] }]));
    expect(report.moduleTools[0]).toMatchObject({
      status: 'not-exposed',
      reasons: [{ code: 'unknown-instance', catalogue: 'ghost' }],
    });
  });

  it('shows a module tool’s arguments from its own descriptor', () => {
    const report = buildExposureReport(app([{ name: 'm', mcpTools: [customTool('lookup')] }]));
    expect(report.moduleTools[0]).toMatchObject({
      status: 'exposed',
      catalogues: ['default'],
      sends: [{ path: 'topic', type: 'string', required: true }],
      shown: null,
    });
  });
});

describe('lifecycle states', () => {
  const reportFor = (lifecycle: ResourceOperationLifecycle) =>
    entry(
      buildExposureReport(app([{ name: 'm', resources: [notes({ read: { variants: [variant({ lifecycle })] } })] }])),
      'notes.read',
    );

  it.each(['beta', 'stable', 'deprecated'] as const)('reports a %s tool as exposed', (lifecycle) => {
    expect(reportFor(lifecycle)).toMatchObject({ lifecycle, status: 'exposed', catalogues: ['default'] });
  });

  it('reports an experimental tool as unlisted but on its catalogue', () => {
    expect(reportFor('experimental')).toMatchObject({ status: 'unlisted', catalogues: ['default'] });
  });

  it('reports a retired tool as blocked, kept on its catalogue to be refused by name', () => {
    expect(reportFor('retired')).toMatchObject({ status: 'blocked', catalogues: ['default'] });
  });
});

describe('what the runtime catalogue serves', () => {
  const mixed = app(
    [
      {
        name: 'm',
        resources: [
          notes({
            read: { variants: [variant({ lifecycle: 'experimental' })] },
            list: { variants: [variant({ lifecycle: 'retired', mcp: { exposed: true, servers: ['support'] } })] },
            create: { variants: [variant({ lifecycle: 'deprecated', mcp: { exposed: true, servers: ['support'] } })] },
            update: { variants: [variant({ mcp: { exposed: false } })] },
          }),
        ],
        mcpTools: [customTool('lookup'), customTool('notes__read')],
      },
    ],
    true,
  );

  it.each([
    ['the reference application', referenceApplication],
    ['an application with every lifecycle and a name clash', mixed],
  ])('places on each catalogue exactly the tools of the runtime for %s', (_name, application) => {
    const full = withEngineModules(application);
    const catalogue = new McpToolCatalogue(ResourcesRegistry.fromApplication(full), full, createSilentLogger());
    const report = buildExposureReport(application);
    for (const [ref, tools] of catalogue.all()) {
      const label = ref === '' ? 'default' : ref;
      expect(toolsOn(report, label)).toEqual([...tools.keys()].sort());
      for (const [name, tool] of tools) {
        const reported = [...report.operations, ...report.moduleTools].filter(
          (e) => e.tool === name && e.catalogues.includes(label),
        );
        expect(reported.map((e) => e.status === 'exposed')).toEqual([tool.listed]);
        expect(reported[0]?.sends).toEqual(fieldsOf(tool.descriptor.inputSchema));
      }
    }
  });
});

describe('recording omissions in the catalogue', () => {
  it('logs only the omissions it always logged: unusable tools, not ineligible operations or unknown instances', () => {
    const warnings: unknown[] = [];
    const logger: Logger = {
      ...createSilentLogger(),
      warn: (message, fields) => void warnings.push({ message, fields }),
    };
    const full = withEngineModules(
      app([
        {
          name: 'm',
          resources: [notes({ read: { variants: [variant({ mcp: { exposed: false } })] } })],
          mcpTools: [customTool('look up!'), customTool('lookup', ['ghost'])],
        },
      ]),
    );
    const catalogue = new McpToolCatalogue(ResourcesRegistry.fromApplication(full), full, logger);
    expect(warnings).toEqual([
      {
        message: 'MCP tool left out of the catalogue',
        fields: { tool: 'look up!', why: 'the name does not match the tool-name grammar' },
      },
    ]);
    expect(catalogue.omissions().map((o) => o.reason)).toContain('unknown-instance');
  });
});

describe('names and types only', () => {
  it('carries no defaults, enum members, constants, examples or descriptions', () => {
    const resource = notes(
      { create: { variants: [variant({ mcp: { exposed: true, description: 'DESCRIPTION-MARKER' } })] } },
      {
        schema: z.object({
          title: z
            .string()
            .describe('FIELD-DESCRIPTION-MARKER')
            .meta({ examples: ['EXAMPLE-MARKER'] }),
          mood: z.enum(['ENUM-MARKER-A', 'ENUM-MARKER-B']).default('ENUM-MARKER-A'),
          code: z.literal('CONST-MARKER').optional(),
          label: z.string().default('DEFAULT-MARKER'),
        }),
      },
    );
    const report = buildExposureReport(app([{ name: 'm', resources: [resource] }]));
    expect(JSON.stringify(report)).not.toMatch(/MARKER/);
    expect(entry(report, 'notes.create').sends).toContainEqual({ path: 'mood', type: 'string', required: false });
  });

  it('reads types from JSON Schema without following a reference cycle', () => {
    const tree = {
      type: 'object',
      properties: {
        root: { $ref: '#/$defs/node' },
        tags: { type: 'array', items: { type: 'string' } },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
      },
      required: ['root'],
      $defs: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['name'],
        },
      },
    };
    expect(fieldsOf(tree)).toEqual([
      { path: 'counts', type: 'object', required: false },
      { path: 'counts.*', type: 'integer', required: false },
      { path: 'root', type: 'object', required: true },
      { path: 'root.children', type: 'array', required: false },
      { path: 'root.name', type: 'string', required: true },
      { path: 'tags', type: 'array', required: false },
      { path: 'tags[]', type: 'string', required: true },
    ]);
  });
});
