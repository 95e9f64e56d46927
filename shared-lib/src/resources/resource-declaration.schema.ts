import { z } from 'zod';
import {
  CoreResourceOperation,
  RESOURCE_OPERATION_LIFECYCLES,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
} from '../models/resource-operation.js';
import { ResourcePrimaryScope } from '../models/resource-scope.js';
import { ResourceOperationFailuresSchema, ResourceOperationPoliciesSchema } from './operation-governance.js';

const identifier = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,62}$/, 'lower-case letters, digits, "_" or "-", starting with a letter');
const roleName = z.string().regex(/^[A-Z][A-Z0-9_]{1,62}$/, 'an upper-case role name such as ORG_MEMBER');
const zodSchema = z.custom<z.ZodType>((v) => v instanceof z.ZodType, 'a Zod schema');
const zodObject = z.custom<z.ZodObject>((v) => v instanceof z.ZodObject, 'a z.object(...) schema');

/** Validates the plain-data part of a variant; the engine reports each problem with its path. */
export const ResourceOperationVariantSchema = z.strictObject({
  variantType: z.enum(ResourceOperationVariantType),
  key: identifier.optional(),
  isDefault: z.boolean().optional(),
  roles: z.array(roleName).min(1, 'at least one role; an operation nobody may call should be removed instead'),
  riskLevel: z.enum(ResourceOperationRiskLevel).optional(),
  rateLimit: z
    .strictObject({
      points: z.number().int().min(1).max(1_000_000),
      durationSeconds: z.number().int().min(1).max(86_400),
      keyBy: z.enum(['principal', 'organization']).optional(),
    })
    .optional(),
  lifecycle: z.enum(RESOURCE_OPERATION_LIFECYCLES).optional(),
  mcp: z
    .strictObject({
      exposed: z.boolean(),
      servers: z.array(identifier).min(1).optional(),
      description: z.string().min(1).max(2_000).optional(),
    })
    .optional(),
  description: z.string().max(2_000).optional(),
  filters: z.array(z.string().min(1)).optional(),
  pageSize: z
    .strictObject({ default: z.number().int().min(1).max(1_000), max: z.number().int().min(1).max(1_000) })
    .refine((p) => p.default <= p.max, 'default must not exceed max')
    .optional(),
  ownerOnly: z.strictObject({ exemptRoles: z.array(roleName) }).optional(),
  requiresReauthentication: z.boolean().optional(),
  unimplemented: z.boolean().optional(),
  policies: ResourceOperationPoliciesSchema.optional(),
  approval: z
    .strictObject({
      required: z.literal(true, { error: 'write approval: { required: true } or leave approval out' }),
      lifetimeSeconds: z.number().int().min(30).max(86_400).optional(),
    })
    .optional(),
});

/** Validates a whole resource declaration before the engine compiles it. */
export const ResourceDeclarationSchema = z.strictObject({
  type: identifier,
  displayName: z.string().min(1).max(200),
  singular: identifier.optional(),
  urlSegment: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,62}$/, 'kebab-case')
    .optional(),
  primaryScope: z.enum(ResourcePrimaryScope),
  schema: zodObject,
  readOnlyFields: z.array(z.string()).optional(),
  internalFields: z.array(z.string()).optional(),
  responseExtensions: z.partialRecord(z.enum(CoreResourceOperation), zodObject).optional(),
  searchFields: z.array(z.string()).optional(),
  relationships: z
    .array(z.strictObject({ field: z.string().min(1), resourceType: identifier, kind: z.literal('belongs-to') }))
    .optional(),
  customOperations: z
    .record(
      identifier,
      z.strictObject({
        target: z.enum(['collection', 'instance']),
        httpMethods: z
          .array(z.enum(['POST', 'PUT']))
          .min(1)
          .refine((methods) => new Set(methods).size === methods.length, 'each method once')
          .optional(),
        requestSchema: zodObject,
        responseSchema: zodSchema,
        effect: z.enum(ResourceOperationEffect),
        displayName: z.string().min(1).max(100).optional(),
        description: z.string().max(2_000).optional(),
        failures: ResourceOperationFailuresSchema.optional(),
      }),
    )
    .optional(),
  operationsConfiguration: z.record(
    identifier,
    z.strictObject({ variants: z.array(ResourceOperationVariantSchema).min(1) }),
  ),
});
