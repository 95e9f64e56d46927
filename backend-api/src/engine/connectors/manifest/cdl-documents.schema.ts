import { z } from 'zod';

/**
 * The documents of a capability manifest in the gateway's own format (CDL): `capabilities.yaml`, one
 * `*.capability.yaml` per capability, `*.resource.yaml` for the shapes they return, `*.binding.yaml` for how each
 * reaches its backend, and `*.policy.yaml` for who may call and how often. Validated strictly: a misspelled key is
 * named, never ignored.
 */

const dottedId = z.string().regex(/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/, 'a dotted id such as wanderlust.search');
const resourceName = z
  .string()
  .regex(/^([a-z][a-z0-9-]*\.)?[A-Z][A-Za-z0-9]*$/, 'a resource name such as Stay or wanderlust.Stay');
const jsonPath = z.string().startsWith('$', 'a JSONPath starting with "$"');

/** The semantic types a field may have. */
export const CDL_SEMANTIC_TYPES = [
  'identifier',
  'text',
  'string',
  'location',
  'date',
  'datetime',
  'date-range',
  'party',
  'money',
  'quantity',
  'boolean',
  'preference-set',
  'enum',
  'image',
  'web-page',
  'html',
] as const;

/** One field of an input, an output or a resource. */
export const CdlFieldSchema = z
  .strictObject({
    type: z.string().min(1).optional(),
    collection: resourceName.optional(),
    list: z.enum(CDL_SEMANTIC_TYPES).optional(),
    ref: resourceName.optional(),
    values: z.array(z.string().min(1)).min(1).optional(),
    required: z.boolean().optional(),
    description: z.string().max(2_000).optional(),
  })
  .refine(
    (field) => [field.type, field.collection, field.list, field.ref].filter((v) => v !== undefined).length === 1,
    {
      message: 'give exactly one of type, collection, list or ref',
    },
  );
export type CdlField = z.infer<typeof CdlFieldSchema>;

const fields = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a field name of letters, digits and "_"'),
  CdlFieldSchema,
);

/** `capabilities.yaml` */
export const CdlRootSchema = z.strictObject({
  company: z.strictObject({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/),
    name: z.string().min(1),
    description: z.string().optional(),
  }),
  capabilities: z.array(dottedId).min(1),
  providers: z.array(z.string().min(1)).optional(),
});

/** `*.capability.yaml` */
export const CdlCapabilitySchema = z.strictObject({
  capability: z.strictObject({
    id: dottedId,
    description: z.string().min(1).max(2_000),
    effect: z.enum(['read', 'write', 'irreversible']),
    input: fields.optional(),
    output: fields,
    failures: z.record(z.string(), z.string().min(1)).optional(),
    policies: z.array(z.enum(['authenticated', 'human-approval'])).optional(),
    lifecycle: z.enum(['experimental', 'beta', 'stable', 'deprecated', 'retired']).optional(),
    provider: z.string().min(1).optional(),
  }),
});
export type CdlCapability = z.infer<typeof CdlCapabilitySchema>['capability'];

/** `*.resource.yaml` */
export const CdlResourceSchema = z.strictObject({
  resource: z.strictObject({ name: resourceName, description: z.string().optional(), fields }),
});
export type CdlResource = z.infer<typeof CdlResourceSchema>['resource'];

const origins = z.array(z.url({ protocol: /^https$/ }));

/** `*.binding.yaml` */
export const CdlBindingSchema = z.strictObject({
  binding: z.strictObject({
    capabilityId: dottedId,
    connector: z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('rest'),
        rest: z.strictObject({
          baseUrl: z.string().min(1),
          method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
          path: z.string().startsWith('/'),
          headers: z.record(z.string(), z.string()).optional(),
          query: z.record(z.string(), z.string()).optional(),
          body: z.unknown().optional(),
          timeoutMs: z.number().int().min(1).max(120_000).optional(),
        }),
      }),
      z.strictObject({
        type: z.literal('sql'),
        sql: z.strictObject({
          engine: z.literal('postgres'),
          dsn: z.string().min(1),
          statementKind: z.literal('select'),
          query: z.string().min(1),
          params: z.array(z.string()).optional(),
          identity: z.record(z.string(), z.enum(['principal', 'userId', 'organizationId', 'clientId'])).optional(),
          timeoutMs: z.number().int().min(1).max(120_000).optional(),
        }),
      }),
    ]),
    response: z.strictObject({
      collection: jsonPath.optional(),
      resource: resourceName,
      map: z.record(z.string(), jsonPath),
      extract: z.record(z.string(), jsonPath).optional(),
      onError: z
        .strictObject({
          errorResource: resourceName,
          when: z.strictObject({ path: jsonPath, exists: z.boolean().optional() }),
          map: z.record(z.string(), jsonPath),
        })
        .optional(),
    }),
    origins: z.strictObject({ images: origins.optional(), pages: origins.optional() }).optional(),
  }),
});
export type CdlBinding = z.infer<typeof CdlBindingSchema>['binding'];

/** `*.policy.yaml` */
export const CdlPolicySchema = z.strictObject({
  apiVersion: z.string().min(1),
  kind: z.literal('Policy'),
  metadata: z.strictObject({
    id: z.string().min(1),
    name: z.string().optional(),
    scope: z.literal('capability'),
    capabilityId: dottedId,
  }),
  spec: z.strictObject({
    allow: z.array(z.string().min(1)).min(1).optional(),
    deny: z.array(z.string().min(1)).min(1).optional(),
    rateLimit: z
      .strictObject({ maxInvocations: z.number().int().min(1), windowSeconds: z.number().int().min(1).max(86_400) })
      .optional(),
  }),
});
export type CdlPolicy = z.infer<typeof CdlPolicySchema>;
