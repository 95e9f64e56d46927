import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CoreResourceOperation,
  ResourceOperationEffect,
  ResourceOperationVariantType,
} from '../models/resource-operation.js';
import { ResourcePrimaryScope } from '../models/resource-scope.js';
import { CORE_ORG_ROLES } from '../models/roles.js';
import { defineResource } from './define-resource.js';
import { ResourceDeclarationSchema } from './resource-declaration.schema.js';
import { resourceRecordSchema } from './resource-record.schema.js';
import { READ_TOOL_MAX_RECORDS, ResourceReadToolInputSchema } from './resource-tool-builder.js';

const member = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };
const NoteSchema = z.object({
  title: z.string().min(1).describe('The title.'),
  pinned: z.boolean().default(false),
  archivedAt: z.string().nullable().default(null),
  secret: z.string().optional(),
});
const ArchiveRequest = z.object({ reason: z.string().min(1) });
const CountRequest = z.object({ pinned: z.boolean().optional() });

const notes = defineResource({
  type: 'notes',
  displayName: 'Notes',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: NoteSchema,
  readOnlyFields: ['archivedAt'],
  internalFields: ['secret'],
  customOperations: {
    archive: {
      target: 'instance',
      requestSchema: ArchiveRequest,
      responseSchema: resourceRecordSchema(NoteSchema, ResourcePrimaryScope.ORGANIZATIONS),
      effect: ResourceOperationEffect.WRITE,
      description: 'Archives one note.',
    },
    count: {
      target: 'collection',
      requestSchema: CountRequest,
      responseSchema: z.object({ total: z.number() }),
      effect: ResourceOperationEffect.READ,
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [member] },
    [CoreResourceOperation.READ]: { variants: [member] },
    [CoreResourceOperation.UPDATE]: { variants: [member] },
    archive: { variants: [member] },
    count: { variants: [member] },
  },
});

describe('defineResource', () => {
  it('returns the declaration as written, still valid under the strict declaration schema', () => {
    expect(ResourceDeclarationSchema.safeParse(notes).success).toBe(true);
    expect(Object.keys(notes)).toEqual([
      'type',
      'displayName',
      'primaryScope',
      'schema',
      'readOnlyFields',
      'internalFields',
      'customOperations',
      'operationsConfiguration',
    ]);
    expect({ ...notes }).not.toHaveProperty('tools');
  });

  it('implements the service as the engine consumes it: the resource type and the handlers', () => {
    const count = async () => ({ total: 1 });
    const guard = () => undefined;
    const implementation = notes.implement({ archive: async ({ record }) => record, count }, { guard });
    expect(implementation).toMatchObject({ resourceType: 'notes', guard, customOperations: { count } });
    expect(Object.keys(implementation.customOperations)).toEqual(['archive', 'count']);
  });
});

describe('a handle’s tools', () => {
  const shapeOf = (schema: z.ZodObject) => z.toJSONSchema(schema);

  it('reads with the bounded lookup contract', () => {
    const read = notes.tools.read();
    expect(read).toMatchObject({
      functionRef: 'resource.notes.read',
      readOnly: true,
      resourceOperation: { resourceType: 'notes', operation: 'read' },
    });
    expect(read.inputSchema).toBe(ResourceReadToolInputSchema);
    expect(read.inputSchema.safeParse({ limit: READ_TOOL_MAX_RECORDS + 1 }).success).toBe(false);
  });

  it('derives UPDATE’s input: the id and the caller-writable fields, each optional, nothing else', () => {
    const update = notes.tools.write('update');
    expect(update).toMatchObject({
      functionRef: 'resource.notes.update',
      description: 'Update one notes record.',
      readOnly: false,
    });
    expect(shapeOf(update.inputSchema)).toMatchObject({ required: ['id'], additionalProperties: false });
    expect(Object.keys(update.inputSchema.shape)).toEqual(['id', 'title', 'pinned']);
    expect(update.inputSchema.safeParse({ id: 'n1', title: 'x' }).success).toBe(true);
    expect(update.inputSchema.safeParse({ id: 'n1', archivedAt: 'now' }).success).toBe(false);
  });

  it('derives CREATE’s input from the writable fields', () => {
    const create = notes.tools.write(CoreResourceOperation.CREATE);
    expect(Object.keys(create.inputSchema.shape)).toEqual(['title', 'pinned']);
    expect(create.inputSchema.safeParse({}).success).toBe(false);
  });

  it('derives a custom operation’s input: its request, plus the id of an instance operation', () => {
    const archive = notes.tools.write('archive', { requiresHumanApproval: true, allowArgumentModification: false });
    expect(archive).toMatchObject({
      description: 'Archives one note.',
      requiresHumanApproval: true,
      allowArgumentModification: false,
      readOnly: false,
    });
    expect(archive.inputSchema.safeParse({ id: 'n1', reason: 'done' }).success).toBe(true);
    expect(archive.inputSchema.safeParse({ reason: 'done' }).success).toBe(false);
    const count = notes.tools.write('count');
    expect(count.inputSchema).toBe(CountRequest);
    expect(count.readOnly).toBe(true);
  });

  it('keeps a given input schema and description', () => {
    const inputSchema = z.object({ id: z.string(), title: z.string() });
    const rename = notes.tools.write('update', { inputSchema, description: 'Rename one note.' });
    expect(rename.inputSchema).toBe(inputSchema);
    expect(rename.description).toBe('Rename one note.');
  });
});
