// Compile-time tests of resource handles (`defineResource`): checked by `tsc -p tsconfig.json` at the repository
// root, never run. Each `@ts-expect-error` line is a mistake that must not compile; the lines around it are the
// correct forms, which must. An expectation that stops failing is itself an error ("unused directive").
import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
  type AnyResourceDeclaration,
  type ResourceOperationHandlerArgs,
  type ResourceRecordOf,
  type ResourceSpecOf,
} from '@wildo/shared-lib';
import { expectTypeOf } from 'vitest';
import { z } from 'zod';
import type { BackendDomainModule } from '../bootstrap/backend-domain-module.js';
import type { FunctionTool } from '../agents/tools/function-tool.types.js';
import type { ExecutionContext } from './execution-context.js';

const ORG = ResourcePrimaryScope.ORGANIZATIONS;
const member = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };

const NoteSchema = z.object({
  title: z.string(),
  body: z.string().optional(),
  pinned: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  archivedAt: z.string().nullable().default(null),
  secret: z.string().optional(),
});

const notes = defineResource({
  type: 'notes',
  displayName: 'Notes',
  primaryScope: ORG,
  schema: NoteSchema,
  readOnlyFields: ['archivedAt'],
  internalFields: ['secret'],
  customOperations: {
    archive: {
      target: 'instance',
      requestSchema: z.object({ reason: z.string() }),
      responseSchema: resourceRecordSchema(NoteSchema, ORG),
      effect: ResourceOperationEffect.WRITE,
    },
    count: {
      target: 'collection',
      requestSchema: z.object({ pinned: z.boolean().optional() }),
      responseSchema: z.object({ total: z.number() }),
      effect: ResourceOperationEffect.READ,
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.READ]: { variants: [member] },
    update: { variants: [member] },
    [CoreResourceOperation.LIST]: { variants: [{ ...member, filters: ['pinned', 'title'] }] },
    archive: { variants: [member] },
    count: { variants: [member] },
  },
});
type Notes = ResourceSpecOf<typeof notes>;

// The handle is a declaration: a module lists it as one.
expectTypeOf(notes).toExtend<AnyResourceDeclaration>();

// Handlers: `id` and `record` only for an instance operation, input from the request schema, result from the response schema.
expectTypeOf<ResourceOperationHandlerArgs<Notes, 'archive'>['id']>().toEqualTypeOf<string>();
expectTypeOf<ResourceOperationHandlerArgs<Notes, 'archive'>['input']>().toEqualTypeOf<{ reason: string }>();
expectTypeOf<ResourceOperationHandlerArgs<Notes, 'archive'>['executionContext']>().toEqualTypeOf<ExecutionContext>();
expectTypeOf<ResourceOperationHandlerArgs<Notes, 'count'>>().not.toHaveProperty('id');
expectTypeOf<ResourceRecordOf<Notes>>().toExtend<{
  _id: string;
  title: string;
  pinned: boolean;
  organizationId: string;
  version: number;
}>();

export const notesService = notes.implement({
  archive: async ({ id, record, input, utils }) => {
    expectTypeOf(record.pinned).toEqualTypeOf<boolean>();
    // Server code writes read-only and internal fields (that is what they are for); only declared ones.
    const archived = await utils.records.update(id, { archivedAt: input.reason, secret: 'kept', pinned: false });
    // @ts-expect-error a misspelled patch field
    await utils.records.update(id, { titel: 'x' });
    // @ts-expect-error a field of the wrong type
    await utils.records.update(id, { pinned: 'yes' });
    // @ts-expect-error a system field is not the handler's to write
    await utils.records.update(id, { version: 3 });
    // @ts-expect-error a new record needs its required fields
    await utils.records.create({ body: 'no title' });
    await utils.records.list({ filters: { pinned: true } });
    // @ts-expect-error an unknown field cannot be a filter
    await utils.records.list({ filters: { colour: 'red' } });
    if (!archived) throw utils.errorBuilder.notFound();
    return archived;
  },
  count: async ({ input, utils }) => ({
    total: (await utils.records.countBy('pinned', input.pinned === undefined ? {} : { pinned: input.pinned })).size,
  }),
});

notes.implement({
  // @ts-expect-error a wrong handler input: the request schema says `reason` is a string
  archive: async ({ input }: { input: { reason: number } }) => ({ ...input, _id: '' }),
  count: async () => ({ total: 1 }),
});

notes.implement({
  archive: async ({ id, utils }) => {
    const record = await utils.records.get(id);
    if (!record) throw utils.errorBuilder.notFound();
    return record;
  },
  // @ts-expect-error `id` does not exist on a collection operation
  count: async ({ id }) => ({ total: id.length }),
});

notes.implement({
  archive: async ({ record }) => record,
  // @ts-expect-error a wrong return: the response schema says `total` is a number
  count: async () => ({ total: 'many' }),
});

// @ts-expect-error every declared custom operation needs its handler
notes.implement({ archive: async ({ record }) => record });

notes.implement({
  archive: async ({ record }) => record,
  count: async () => ({ total: 0 }),
  // @ts-expect-error a handler for an operation the resource does not declare
  reopen: async () => ({}),
});

// Tools: typed refs, writes only over configured operations.
const readNotes = notes.tools.read();
const archiveNote = notes.tools.write('archive', { requiresHumanApproval: true });
expectTypeOf(readNotes.functionRef).toEqualTypeOf<'resource.notes.read'>();
expectTypeOf(archiveNote.functionRef).toEqualTypeOf<'resource.notes.archive'>();
expectTypeOf(notes.tools.write(CoreResourceOperation.UPDATE).functionRef).toEqualTypeOf<'resource.notes.update'>();
notes.tools.write('update', { inputSchema: z.object({ id: z.string(), title: z.string() }) });
notes.tools.write('count', { description: 'Count notes.' });
// @ts-expect-error a tool over an operation the resource does not declare
notes.tools.write('reopen');
// @ts-expect-error a tool over a core operation the resource does not configure
notes.tools.write('create');
// @ts-expect-error DELETE is not a write tool's operation
notes.tools.write('delete');
// @ts-expect-error a tool input naming a field UPDATE does not take (misspelled)
notes.tools.write('update', { inputSchema: z.object({ id: z.string(), titel: z.string() }) });
// @ts-expect-error a tool input naming a read-only field
notes.tools.write('update', { inputSchema: z.object({ id: z.string(), archivedAt: z.string() }) });
// @ts-expect-error an instance operation's tool input without the id
notes.tools.write('archive', { inputSchema: z.object({ reason: z.string() }) });

export const notesModule: BackendDomainModule = {
  name: 'notes',
  resources: [notes],
  customServiceImplementations: [notesService],
  flowsActors: { functionTools: [readNotes, archiveNote] satisfies FunctionTool[] },
};

// Declarations: roles typed to the scope, filters to the schema's filterable fields, operation names to those declared.
defineResource({
  type: 'bad-role',
  displayName: 'Bad role',
  primaryScope: ORG,
  schema: NoteSchema,
  operationsConfiguration: {
    // @ts-expect-error a role of the wrong scope (an application role on an organization resource)
    [CoreResourceOperation.READ]: { variants: [{ ...member, roles: [CORE_APP_ROLES.APP_USER] }] },
  },
});

defineResource({
  type: 'app-settings',
  displayName: 'Settings',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: NoteSchema,
  operationsConfiguration: {
    [CoreResourceOperation.READ]: { variants: [{ ...member, roles: [CORE_APP_ROLES.APP_ADMIN] }] },
    // @ts-expect-error an organization role on an application resource
    [CoreResourceOperation.LIST]: { variants: [{ ...member, roles: [CORE_ORG_ROLES.ORG_ADMIN] }] },
  },
});

defineResource({
  type: 'bad-filter',
  displayName: 'Bad filter',
  primaryScope: ORG,
  schema: NoteSchema,
  operationsConfiguration: {
    // @ts-expect-error an unknown filter
    [CoreResourceOperation.LIST]: { variants: [{ ...member, filters: ['colour'] }] },
  },
});

defineResource({
  type: 'list-filter',
  displayName: 'List filter',
  primaryScope: ORG,
  schema: NoteSchema,
  operationsConfiguration: {
    // @ts-expect-error a field that cannot be filtered on (an array)
    [CoreResourceOperation.LIST]: { variants: [{ ...member, filters: ['tags'] }] },
  },
});

defineResource({
  type: 'bad-operation',
  displayName: 'Bad operation',
  primaryScope: ORG,
  schema: NoteSchema,
  operationsConfiguration: {
    // @ts-expect-error an operation that is neither core nor declared in customOperations
    archive: { variants: [member] },
  },
});

defineResource({
  type: 'bad-field',
  displayName: 'Bad field',
  primaryScope: ORG,
  schema: NoteSchema,
  // @ts-expect-error a read-only field the schema does not declare
  readOnlyFields: ['archived'],
  operationsConfiguration: { [CoreResourceOperation.READ]: { variants: [member] } },
});

const writeOnly = defineResource({
  type: 'inbox',
  displayName: 'Inbox',
  primaryScope: ORG,
  schema: NoteSchema,
  operationsConfiguration: { [CoreResourceOperation.CREATE]: { variants: [member] } },
});
writeOnly.tools.write('create');
// @ts-expect-error a read tool over a resource that does not configure READ
writeOnly.tools.read();

// Custom operations keyed by an enum member are named by its value everywhere.
enum PinOperations {
  PIN = 'pin',
}
const pins = defineResource({
  type: 'pins',
  displayName: 'Pins',
  primaryScope: ORG,
  schema: NoteSchema,
  customOperations: {
    [PinOperations.PIN]: {
      target: 'instance',
      requestSchema: z.object({}),
      responseSchema: z.object({ ok: z.boolean() }),
      effect: ResourceOperationEffect.WRITE,
    },
  },
  operationsConfiguration: { pin: { variants: [member] } },
});
pins.implement({ [PinOperations.PIN]: async ({ id }) => ({ ok: id.length > 0 }) });
pins.implement({ pin: async () => ({ ok: true }) });
expectTypeOf(pins.tools.write('pin').functionRef).toEqualTypeOf<'resource.pins.pin'>();
pins.tools.write(PinOperations.PIN, { inputSchema: z.object({ id: z.string() }) });
// @ts-expect-error the instance operation's tool input still needs the id
pins.tools.write(PinOperations.PIN, { inputSchema: z.object({}) });
