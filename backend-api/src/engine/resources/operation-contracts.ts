import {
  CoreResourceOperation,
  resourceRecordSchema,
  type ResourcePrimaryScope,
  type ResourceCustomOperationDefinition,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { CompiledFilter } from './compiled-resource.types.js';
import { buildCreateInputSchema, buildPatchInputSchema, toStrictInput } from './schema/index.js';

/** The longest search text accepted. */
export const MAX_SEARCH_TEXT = 500;
/** The longest cursor accepted (cursors are opaque tokens issued by the store). */
export const MAX_CURSOR_LENGTH = 512;

/** Input and response contracts of one operation. */
export interface OperationContract {
  inputSchema?: z.ZodType;
  responseSchema: z.ZodType;
  /** Fields of the record the input may not set (system and read-only fields), named as such when sent. */
  readOnlyFields?: readonly string[];
}

/** Derives every operation's contracts of one resource from its schema, once. */
export function buildOperationContracts(resource: {
  type: string;
  scope: ResourcePrimaryScope;
  schema: z.ZodObject;
  readOnlyFields: readonly string[];
  internalFields: readonly string[];
  responseExtensions: Partial<Record<CoreResourceOperation, z.ZodObject>>;
}) {
  // Internal fields are stored but neither accepted nor returned: they leave the record and the inputs.
  const visibleShape = Object.fromEntries(
    Object.entries(resource.schema.shape).filter(([key]) => !resource.internalFields.includes(key)),
  );
  const visibleSchema = z.object(visibleShape);
  const recordSchema = resourceRecordSchema(visibleSchema, resource.scope);
  const notWritable = [...resource.readOnlyFields, ...resource.internalFields];
  const createInputSchema = buildCreateInputSchema(resource.schema, notWritable);
  const patchInputSchema = buildPatchInputSchema(resource.schema, notWritable);
  // Internal fields are not among them: a caller who names one hears what any undeclared key gets.
  const writable = new Set(Object.keys(createInputSchema.shape));
  const readOnlyFields = Object.keys(recordSchema.shape).filter((key) => !writable.has(key));
  const responseOf = (operation: CoreResourceOperation) => {
    const extension = resource.responseExtensions[operation];
    return extension ? recordSchema.extend(extension.shape) : recordSchema;
  };
  const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

  return {
    recordSchema,
    createInputSchema,
    patchInputSchema,
    core(
      operation: CoreResourceOperation,
      filters: ReadonlyMap<string, CompiledFilter>,
      variant: ResourceOperationVariant,
    ): OperationContract {
      switch (operation) {
        case CoreResourceOperation.CREATE:
          return { inputSchema: createInputSchema, responseSchema: responseOf(operation), readOnlyFields };
        case CoreResourceOperation.UPDATE:
          return { inputSchema: patchInputSchema, responseSchema: responseOf(operation), readOnlyFields };
        case CoreResourceOperation.DELETE:
          return { responseSchema: deletedSchema };
        case CoreResourceOperation.SEARCH:
          return {
            inputSchema: searchInputSchema(filters, variant.pageSize?.max ?? 100),
            responseSchema: recordSchema,
          };
        default:
          return { responseSchema: responseOf(operation) };
      }
    },
    custom(definition: ResourceCustomOperationDefinition): OperationContract {
      return { inputSchema: toStrictInput(definition.requestSchema), responseSchema: definition.responseSchema };
    },
  };
}

function searchInputSchema(filters: ReadonlyMap<string, CompiledFilter>, maxLimit: number): z.ZodType {
  const filterShape: Record<string, z.ZodType> = {};
  for (const filter of filters.values())
    filterShape[filter.name] = (filter.nullable ? filter.schema.nullable() : filter.schema).optional();
  return z.strictObject({
    query: z.string().trim().min(1).max(MAX_SEARCH_TEXT),
    filters: z.strictObject(filterShape).optional(),
    limit: z.number().int().min(1).max(maxLimit).optional(),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  });
}
