import type { z } from 'zod';
import type { CoreResourceOperation } from '../models/resource-operation.js';
import type { ResourcePrimaryScope } from '../models/resource-scope.js';
import type { CoreAppRole, CoreOrgRole } from '../models/roles.js';
import type { ResourceOperationPolicies } from './operation-governance.js';
import type { ResourceCustomOperationDefinition, ResourceOperationVariant } from './resource-declaration.js';

/**
 * Types the engine contributes to resource handles: what a handler receives and what a tool is called with.
 * `@wildo/backend-api` fills it in by module augmentation; in a program without the engine (the frontend) it
 * stays empty and those places are `unknown`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by module augmentation
export interface WildoEngineTypes {}

/** One of the engine's contributed types, or `TFallback` in a program without the engine. */
export type EngineType<TKey extends string, TFallback> = WildoEngineTypes extends { [K in TKey]: infer T }
  ? T
  : TFallback;

/** The roles that can match on a resource of scope `TScope`: organization roles in an organization, application roles otherwise. */
export type ResourceScopeRole<TScope extends ResourcePrimaryScope> = TScope extends ResourcePrimaryScope.ORGANIZATIONS
  ? CoreOrgRole
  : CoreAppRole;

/** The declared field names of a resource schema. */
export type ResourceFieldName<TSchema extends z.ZodObject> = keyof z.output<TSchema> & string;

type Scalar = string | number | boolean;

/** Fields a LIST or SEARCH variant may filter on: the schema's text, number and boolean fields (any name for an open schema). */
export type ResourceFilterableField<TSchema extends z.ZodObject> =
  string extends ResourceFieldName<TSchema>
    ? string
    : Exclude<
        {
          [K in ResourceFieldName<TSchema>]-?: NonNullable<z.output<TSchema>[K]> extends Scalar ? K : never;
        }[ResourceFieldName<TSchema>],
        'limit' | 'cursor'
      >;

/** A custom operation table: operation key → its contract. */
export type ResourceCustomOperations = Readonly<Record<string, ResourceCustomOperationDefinition>>;

/** The operation names a resource may configure: the core operations and its custom operations (enum members as their values). */
export type ResourceOperationName<TCustom extends ResourceCustomOperations> =
  | `${CoreResourceOperation}`
  | `${keyof TCustom & string}`;

/** A variant whose roles are typed to the resource's scope and whose filters name the schema's filterable fields. */
export interface TypedResourceOperationVariant<
  TScope extends ResourcePrimaryScope,
  TSchema extends z.ZodObject,
> extends Omit<ResourceOperationVariant, 'roles' | 'filters' | 'ownerOnly' | 'policies'> {
  roles: readonly ResourceScopeRole<TScope>[];
  filters?: readonly ResourceFilterableField<TSchema>[];
  ownerOnly?: { exemptRoles: readonly ResourceScopeRole<TScope>[] };
  /** Who may call this variant and how often; role matchers name the scope's roles. */
  policies?: ResourceOperationPolicies<ResourceScopeRole<TScope>>;
}

/** Everything the types know about one declared resource (the handle's type parameter). */
export interface ResourceSpec {
  type: string;
  schema: z.ZodObject;
  scope: ResourcePrimaryScope;
  custom: ResourceCustomOperations;
  /** The operation names `operationsConfiguration` configures. */
  operation: string;
  readOnly: string;
  internal: string;
}

/** The system fields every record of a resource of scope `TScope` carries. */
export type ResourceSystemFieldsOf<TScope extends ResourcePrimaryScope> = {
  createdByUserId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
} & (TScope extends ResourcePrimaryScope.ORGANIZATIONS
  ? { organizationId: string }
  : TScope extends ResourcePrimaryScope.USER
    ? { userId: string }
    : unknown);

/** A stored record of the resource as server code sees it: `_id`, the declared fields and the system fields. */
export type ResourceRecordOf<S extends ResourceSpec> = { _id: string } & z.output<S['schema']> &
  ResourceSystemFieldsOf<S['scope']>;

/** Equality filters over the resource's filterable fields, for server-side listing and counting. */
export type ResourceRecordFilters<S extends ResourceSpec> = {
  readonly [K in ResourceFilterableField<S['schema']>]?:
    | (K extends keyof z.output<S['schema']> ? NonNullable<z.output<S['schema']>[K]> : Scalar)
    | null;
};

/** The fields server code may write: every declared field (read-only and internal fields are the server's to write). */
export type ResourceRecordData<S extends ResourceSpec> = z.input<S['schema']>;

/**
 * Records of one resource in the caller's tenant, typed by its schema: a patch or a new record names declared
 * fields only, so a misspelled field does not compile. The engine validates every write against the schema.
 */
export interface ResourceRecords<S extends ResourceSpec> {
  get(id: string): Promise<ResourceRecordOf<S> | null>;
  list(query?: {
    filters?: ResourceRecordFilters<S>;
    limit?: number;
    cursor?: string;
  }): Promise<{ data: ResourceRecordOf<S>[]; nextCursor: string | null }>;
  /** Creates a record (validated against the full schema, relationships checked), written by the caller's principal. */
  create(data: ResourceRecordData<S>, options?: { id?: string }): Promise<ResourceRecordOf<S>>;
  /** Applies a patch with optimistic concurrency (see the engine's `ScopedRecords.update`). */
  update(
    id: string,
    patch: Partial<ResourceRecordData<S>>,
    options?: { expectedVersion?: number },
  ): Promise<ResourceRecordOf<S> | null>;
  countBy(
    field: ResourceFieldName<S['schema']>,
    filters?: ResourceRecordFilters<S>,
  ): Promise<Map<string | number | boolean | null, number>>;
}

/** The engine's handler utilities with `records` typed to the resource. */
export type ResourceHandlerUtils<S extends ResourceSpec> = Omit<
  EngineType<'handlerUtils', { records: unknown }>,
  'records'
> & {
  records: ResourceRecords<S>;
};

/** The custom operation keys of a resource. */
export type ResourceCustomOperationKey<S extends ResourceSpec> = keyof S['custom'] & string;

type DefinitionOf<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = S['custom'][K];

/** The validated input a custom operation's handler receives (the request schema's output). */
export type ResourceOperationInput<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = z.output<
  DefinitionOf<S, K>['requestSchema']
>;

/** What a custom operation's handler returns: the response schema's output (the result is projected, never parsed). */
export type ResourceOperationOutput<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = z.output<
  DefinitionOf<S, K>['responseSchema']
>;

/** The failure codes a custom operation declares (`never` when it declares none). */
export type ResourceOperationFailureCode<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> =
  DefinitionOf<S, K> extends { failures: infer F } ? keyof F & string : never;

type EngineErrorBuilder =
  EngineType<'handlerUtils', { errorBuilder: { failure(code: string): Error } }> extends {
    errorBuilder: infer B;
  }
    ? B
    : never;
type EngineFailureError = EngineErrorBuilder extends { failure(code: string): infer E } ? E : Error;

/** The engine's error builder with `failure` typed to the codes an operation declares. */
export type ResourceOperationErrorBuilder<TCode extends string> = Omit<EngineErrorBuilder, 'failure'> & {
  /**
   * The declared failure `code` as an error to throw (`throw utils.errorBuilder.failure('quote-expired')`): the
   * caller receives the code and its declared description, nothing else.
   */
  failure(code: TCode): EngineFailureError;
};

/** The handler utilities of one custom operation: records typed to the resource, failures to the operation's codes. */
export type ResourceOperationUtils<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = Omit<
  ResourceHandlerUtils<S>,
  'errorBuilder'
> & {
  errorBuilder: ResourceOperationErrorBuilder<ResourceOperationFailureCode<S, K>>;
};

type AddressedRecordArgs<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = DefinitionOf<
  S,
  K
>['target'] extends 'instance'
  ? {
      /** The addressed record's id. */ id: string;
      /** The addressed record, as stored in the caller's tenant. */ record: ResourceRecordOf<S>;
    }
  : DefinitionOf<S, K>['target'] extends 'collection'
    ? unknown
    : { id?: string; record?: ResourceRecordOf<S> };

/** The arguments of a custom operation's handler: `id` and `record` for an instance operation only. */
export type ResourceOperationHandlerArgs<
  S extends ResourceSpec,
  K extends ResourceCustomOperationKey<S>,
> = AddressedRecordArgs<S, K> & {
  input: ResourceOperationInput<S, K>;
  executionContext: EngineType<'executionContext', unknown>;
  utils: ResourceOperationUtils<S, K>;
};

/** A custom operation's handler, typed from its declaration. */
export type ResourceOperationHandler<S extends ResourceSpec, K extends ResourceCustomOperationKey<S>> = (
  args: ResourceOperationHandlerArgs<S, K>,
) => Promise<ResourceOperationOutput<S, K>>;

/** One handler per declared custom operation. */
export type ResourceOperationHandlers<S extends ResourceSpec> = {
  [K in ResourceCustomOperationKey<S>]: ResourceOperationHandler<S, K>;
};

/** The core-operation hooks of a service implementation (guard, prefix and postfix handlers, ...), as the engine types them. */
export type ResourceServiceHooks = EngineType<'serviceHooks', Record<never, never>>;

/** What `handle.implement(...)` returns: the service implementation a module lists in `customServiceImplementations`. */
export type ResourceServiceImplementation<S extends ResourceSpec> = ResourceServiceHooks & {
  resourceType: S['type'];
  customOperations: ResourceOperationHandlers<S>;
};

/** The fields a caller (a person, or a model through a tool) may send: declared, neither read-only nor internal. */
export type ResourceWritableField<S extends ResourceSpec> = Exclude<
  ResourceFieldName<S['schema']>,
  S['readOnly'] | S['internal']
>;

/** The operations a write tool may call: CREATE, UPDATE and the custom operations the resource configures. */
export type ResourceWriteToolOperation<S extends ResourceSpec> = Extract<
  S['operation'],
  `${CoreResourceOperation.CREATE}` | `${CoreResourceOperation.UPDATE}` | `${ResourceCustomOperationKey<S>}`
>;

// `z.object({})` infers `Record<string, never>`; as tool arguments beside an `id` it means "nothing else".
type RequestFields<T> = string extends keyof T ? ([T[string]] extends [never] ? unknown : T) : T;

/** The contract of the custom operation named `TName` (its key may be an enum member whose value is `TName`). */
type DefinitionNamed<S extends ResourceSpec, TName extends string> = {
  [K in ResourceCustomOperationKey<S>]: `${K}` extends TName ? S['custom'][K] : never;
}[ResourceCustomOperationKey<S>];

type WritableInput<S extends ResourceSpec> = Pick<
  z.input<S['schema']>,
  ResourceWritableField<S> & keyof z.input<S['schema']>
>;

/** The arguments a write tool over `TOperation` takes by default (and the most a custom `inputSchema` may name). */
export type ResourceToolArgs<
  S extends ResourceSpec,
  TOperation extends string,
> = TOperation extends `${CoreResourceOperation.CREATE}`
  ? WritableInput<S>
  : TOperation extends `${CoreResourceOperation.UPDATE}`
    ? { id: string } & Partial<WritableInput<S>>
    : DefinitionNamed<S, TOperation>['target'] extends 'instance'
      ? { id: string } & RequestFields<z.input<DefinitionNamed<S, TOperation>['requestSchema']>>
      : z.input<DefinitionNamed<S, TOperation>['requestSchema']>;

/**
 * Refuses (at compile time) a tool input schema that names a field the operation does not take, or leaves out
 * the `id` the operation needs.
 */
export type ResourceToolInputCheck<TAllowed, TGiven> = [Exclude<keyof TGiven, keyof TAllowed>] extends [never]
  ? TGiven extends Partial<TAllowed> & Pick<TAllowed, 'id' & keyof TAllowed>
    ? unknown
    : { inputSchemaProblem: 'a field has a type the operation does not accept, or the id is missing' }
  : { inputSchemaProblem: 'fields the operation does not take'; fields: Exclude<keyof TGiven, keyof TAllowed> };

/** What a tool's `execute` receives besides its arguments (the engine's function tool context). */
export type ResourceToolContext = EngineType<'toolContext', unknown>;

/** A function tool over one operation of a resource: the engine runs it through the shared dispatch path. */
export interface ResourceTool<TRef extends string = string, TArgs extends z.ZodObject = z.ZodObject> {
  readonly functionRef: TRef;
  readonly description: string;
  readonly inputSchema: TArgs;
  readonly requiresHumanApproval?: boolean;
  readonly allowArgumentModification?: boolean;
  readonly readOnly?: boolean;
  /** The operation the tool calls, for start-up checks and reports. */
  readonly resourceOperation: { readonly resourceType: string; readonly operation: string };
  execute(args: Record<string, unknown>, ctx: ResourceToolContext): Promise<unknown>;
}

/** Options of `handle.tools.read()`. */
export interface ResourceReadToolOptions {
  description?: string;
}

/** Options of `handle.tools.write(operation, options)`. */
export interface ResourceWriteToolOptions<TArgs extends z.ZodObject> {
  /** Pause each call for a person's decision before any effect. */
  requiresHumanApproval?: boolean;
  /** Whether the person may change the arguments when approving (default true). */
  allowArgumentModification?: boolean;
  /** What the tool does, written for a model; defaults to the operation's description. */
  description?: string;
  /**
   * The model-facing contract; defaults to one derived from the resource (UPDATE: `id` and the writable fields,
   * each optional; CREATE: the writable fields; a custom operation: its request schema, plus `id` for an
   * instance operation). It may name only fields the operation takes.
   */
  inputSchema?: TArgs;
}

/** A resource's tools. A tool over an operation the resource does not configure does not compile. */
export interface ResourceHandleTools<S extends ResourceSpec> {
  /**
   * A bounded lookup: one record by id, or a short list (SEARCH when the resource serves it and a query is given,
   * otherwise LIST). Only for a resource that configures READ.
   */
  read(
    ...options: `${CoreResourceOperation.READ}` extends S['operation']
      ? [options?: ResourceReadToolOptions]
      : [readIsNotConfigured: never]
  ): ResourceTool<`resource.${S['type']}.${CoreResourceOperation.READ}`>;
  /** A tool that performs CREATE, UPDATE or one of the resource's custom operations, optionally behind a person's approval. */
  write<const TOperation extends ResourceWriteToolOperation<S>, TArgs extends z.ZodObject = z.ZodObject>(
    operation: TOperation,
    options?: ResourceWriteToolOptions<TArgs> & {
      inputSchema?: ResourceToolInputCheck<ResourceToolArgs<S, `${TOperation}`>, z.output<TArgs>>;
    },
  ): ResourceTool<`resource.${S['type']}.${TOperation}`>;
}
