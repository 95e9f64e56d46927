import type { z } from 'zod';
import type {
  CoreResourceOperation,
  ResourceOperationEffectName,
  ResourceOperationLifecycle,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
} from '../models/resource-operation.js';
import type { ResourcePrimaryScope } from '../models/resource-scope.js';
import type { ResourceOperationFailures, ResourceOperationPolicies } from './operation-governance.js';

/** An operation's own rate policy, charged per credential in a bucket of each surface (REST, MCP, ...). */
export interface ResourceOperationRateLimit {
  /** Requests allowed in one window. */
  points: number;
  /** Length of the window. */
  durationSeconds: number;
  /** Whose bucket is charged: the principal (default) or the whole organization. */
  keyBy?: 'principal' | 'organization';
}

/** Opt-in exposure of an operation as an MCP tool. */
export interface ResourceOperationMcpExposure {
  exposed: boolean;
  /** Named MCP instances that serve this tool exclusively; omitted = the default `/mcp` catalogue. */
  servers?: readonly string[];
  /** What the tool does, written for a model. */
  description?: string;
}

/**
 * A person must approve each call before it runs: the approval is bound to the operation, the call's exact input
 * and the caller, used once, and expires (REST answers 428 with the pending approval; MCP asks through the
 * client; agents pause). Works the same for operations a connector backs: the backend is not asked before it.
 */
export interface ResourceOperationApproval {
  required: true;
  /** How long a pending or granted approval stays usable (default 15 minutes, at most one day). */
  lifetimeSeconds?: number;
}

/** Only the creator may reach a record through this variant, unless the caller holds an exempt role. */
export interface ResourceOperationOwnerOnly {
  exemptRoles: readonly string[];
}

/** One way of performing an operation; exactly one variant per operation is the URL-bearing default. */
export interface ResourceOperationVariant {
  variantType: ResourceOperationVariantType;
  /** Name of a non-default variant (reached from server code by `<type>.<operation>#<key>`). */
  key?: string;
  isDefault?: boolean;
  /** Roles admitted (each implies the roles below it in its hierarchy). */
  roles: readonly string[];
  riskLevel?: ResourceOperationRiskLevel;
  rateLimit?: ResourceOperationRateLimit;
  /** Defaults to `stable`. */
  lifecycle?: ResourceOperationLifecycle;
  mcp?: ResourceOperationMcpExposure;
  description?: string;
  /** LIST only: fields a caller may filter on with `?field=value`. */
  filters?: readonly string[];
  /** LIST and SEARCH only: page size bounds (defaults 20 and 100). */
  pageSize?: { default: number; max: number };
  ownerOnly?: ResourceOperationOwnerOnly;
  /** The caller must present a fresh single-use step-up proof (re-authentication) with the call. */
  requiresReauthentication?: boolean;
  /** Declared but deliberately not implemented yet: never routed, never offered as a tool. */
  unimplemented?: boolean;
  /** Who may call this variant and how often, checked before the input is read (see {@link ResourceOperationPolicies}). */
  policies?: ResourceOperationPolicies;
  /** Each call waits for a person's approval (see {@link ResourceOperationApproval}). */
  approval?: ResourceOperationApproval;
}

/** The variants of one operation. */
export interface ResourceOperationConfiguration {
  variants: readonly ResourceOperationVariant[];
}

/** A custom operation's contract: where it is addressed and what it takes and returns. */
export interface ResourceCustomOperationDefinition {
  /** `collection`: `POST .../<plural>/<op>`; `instance`: `POST .../<plural>/:id/<op>`. */
  target: 'collection' | 'instance';
  /** The methods its route answers, the first being the one documented (default `['POST']`). */
  httpMethods?: readonly ('POST' | 'PUT')[];
  requestSchema: z.ZodObject;
  responseSchema: z.ZodType;
  /** `read`, `write`, `destructive` or `irreversible`: lowered to the tools' read-only / destructive / idempotent hints. */
  effect: ResourceOperationEffectName;
  /** What a person sees on its button and form (default: the key in words, `mark_done` → "Mark done"). */
  displayName?: string;
  description?: string;
  /**
   * The failures the operation may answer with, code → description for the caller. A handler raises one with
   * `utils.errorBuilder.failure(code)`; anything it throws that is not declared reaches the caller as a bare error.
   */
  failures?: ResourceOperationFailures;
}

/** A field that holds the id of another resource's record, checked to exist in the same tenant on write. */
export interface ResourceRelationship {
  field: string;
  resourceType: string;
  kind: 'belongs-to';
}

/**
 * A resource: its identity, Zod schema, scope and the operations it serves. The engine derives the
 * REST routes, input contracts, response projection, persistence table and tool descriptors from it.
 */
export interface ResourceDeclaration<TType extends string = string, TSchema extends z.ZodObject = z.ZodObject> {
  type: TType;
  displayName: string;
  /** Singular noun used in ids of generated contracts (`todoId`); defaults to the type minus a trailing `s`. */
  singular?: string;
  /** URL segment; defaults to the kebab-case type. */
  urlSegment?: string;
  primaryScope: ResourcePrimaryScope;
  schema: TSchema;
  /** Fields only the server writes (by custom operations or handlers); callers read them but cannot send them. */
  readOnlyFields?: readonly (keyof z.infer<TSchema> & string)[];
  /** Fields the server stores but never returns (secret hashes, lookup material): neither input nor output. */
  internalFields?: readonly (keyof z.infer<TSchema> & string)[];
  /** Extra fields a core operation's response may carry beyond the record (e.g. a one-time `plainKey` on CREATE). */
  responseExtensions?: Partial<Record<CoreResourceOperation, z.ZodObject>>;
  /** Text fields searched by SEARCH; defaults to the fields marked `.ragSource()`. */
  searchFields?: readonly (keyof z.infer<TSchema> & string)[];
  relationships?: readonly ResourceRelationship[];
  customOperations?: Readonly<Record<string, ResourceCustomOperationDefinition>>;
  operationsConfiguration: Partial<Record<CoreResourceOperation, ResourceOperationConfiguration>> &
    Readonly<Record<string, ResourceOperationConfiguration>>;
}

/** Any resource declaration, whatever its type and schema. */
export type AnyResourceDeclaration = ResourceDeclaration<string, z.ZodObject>;
