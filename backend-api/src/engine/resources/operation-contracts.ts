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
}

/** Derives every operation's contracts of one resource from its schema, once. */
export function buildOperationContracts(resource: {
  type: string;
  scope: ResourcePrimaryScope;
  schema: z.ZodObject;
  readOnlyFields: readonly string[];
}) {
  const recordSchema = resourceRecordSchema(resource.schema, resource.scope);
  const createInputSchema = buildCreateInputSchema(resource.schema, resource.readOnlyFields);
  const patchInputSchema = buildPatchInputSchema(resource.schema, resource.readOnlyFields);
  const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

  return {
    recordSchema,
    createInputSchema,
    patchInputSchema,
    core(operation: CoreResourceOperation, filters: ReadonlyMap<string, CompiledFilter>, variant: ResourceOperationVariant): OperationContract {
      switch (operation) {
        case CoreResourceOperation.CREATE:
          return { inputSchema: createInputSchema, responseSchema: recordSchema };
        case CoreResourceOperation.UPDATE:
          return { inputSchema: patchInputSchema, responseSchema: recordSchema };
        case CoreResourceOperation.DELETE:
          return { responseSchema: deletedSchema };
        case CoreResourceOperation.SEARCH:
          return { inputSchema: searchInputSchema(filters, variant.pageSize?.max ?? 100), responseSchema: recordSchema };
        default:
          return { responseSchema: recordSchema };
      }
    },
    custom(definition: ResourceCustomOperationDefinition): OperationContract {
      return { inputSchema: toStrictInput(definition.requestSchema), responseSchema: definition.responseSchema };
    },
  };
}

function searchInputSchema(filters: ReadonlyMap<string, CompiledFilter>, maxLimit: number): z.ZodType {
  const filterShape: Record<string, z.ZodType> = {};
  for (const filter of filters.values()) filterShape[filter.name] = (filter.nullable ? filter.schema.nullable() : filter.schema).optional();
  return z.strictObject({
    query: z.string().trim().min(1).max(MAX_SEARCH_TEXT),
    filters: z.strictObject(filterShape).optional(),
    limit: z.number().int().min(1).max(maxLimit).optional(),
    cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  });
}

