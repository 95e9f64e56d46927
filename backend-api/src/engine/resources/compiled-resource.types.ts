import type {
  AnyResourceDeclaration,
  CoreResourceOperation,
  ResourceOperationEffect,
  ResourceOperationLifecycle,
  ResourceOperationFailures,
  ResourceOperationMcpExposure,
  ResourceOperationOwnerOnly,
  ResourceOperationPolicies,
  ResourceOperationRateLimit,
  ResourceOperationRiskLevel,
  ResourceOperationVariant,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import type { z } from 'zod';
import type { Projector } from '../governance/index.js';
import type { ResourceStoreDefinition, StoreFilterField } from '../persistence/index.js';

/** Whether an operation addresses the collection or one record. */
export type OperationTarget = 'collection' | 'instance';

/** A declared filter: its kind for the store and the field schema values are checked against. */
export interface CompiledFilter extends StoreFilterField {
  schema: z.ZodType;
  nullable: boolean;
}

/** HTTP binding of a URL-bearing operation. */
export interface OperationHttpBinding {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express path below `/api/v1`, e.g. `/organizations/:organizationId/todos/:id`. */
  path: string;
  /** Further methods the same route answers, identically (a custom operation's `httpMethods` after the first). */
  alsoAccepts?: readonly ('POST' | 'PUT')[];
}

/** One operation variant, compiled once at start: everything dispatch needs, precomputed. */
export interface CompiledOperation {
  resourceType: string;
  /** Core operation value (`read`) or custom operation key (`complete`). */
  operation: string;
  kind: 'core' | 'custom';
  core?: CoreResourceOperation;
  variantKey: string;
  isDefault: boolean;
  /** `todos.read` for the default variant, `todos.read#admin` for others. */
  servicePath: string;
  target: OperationTarget;
  effect: ResourceOperationEffect;
  scope: ResourcePrimaryScope;
  /** Present for default `API_CALL` variants that are implemented. */
  http?: OperationHttpBinding;
  roles: readonly string[];
  riskLevel?: ResourceOperationRiskLevel;
  rateLimit?: ResourceOperationRateLimit;
  lifecycle: ResourceOperationLifecycle;
  mcp?: ResourceOperationMcpExposure;
  description?: string;
  ownerOnly?: ResourceOperationOwnerOnly;
  /** Who may call and how often per caller (the dispatch path's `policy` step). */
  policies?: ResourceOperationPolicies;
  /** The failures a custom operation declares (code → description). */
  failures?: ResourceOperationFailures;
  /** A fresh single-use step-up proof must accompany the call. */
  requiresReauthentication: boolean;
  /** Each call waits for a person's approval (the dispatch path's `approval` step); how long one stays usable. */
  approval?: { lifetimeMs: number };
  unimplemented: boolean;
  /** Strict input contract (body) of CREATE, UPDATE, SEARCH and custom operations. */
  inputSchema?: z.ZodType;
  /** CREATE/UPDATE: record fields the input may not set (system and read-only fields; internal ones are not named). */
  readOnlyFields?: readonly string[];
  /** LIST/SEARCH: declared filters by field name. */
  filters: ReadonlyMap<string, CompiledFilter>;
  pageSize: { default: number; max: number };
  /** What a successful result may contain (per item for LIST/SEARCH). */
  responseSchema: z.ZodType;
  projector: Projector;
  variant: ResourceOperationVariant;
}

/** A resource compiled from its declaration. */
export interface CompiledResource {
  declaration: AnyResourceDeclaration;
  type: string;
  /** The module that declares it. */
  module: string;
  scope: ResourcePrimaryScope;
  urlSegment: string;
  singular: string;
  readOnlyFields: readonly string[];
  /** Stored, never accepted from callers, never returned. */
  internalFields: readonly string[];
  storeDefinition: ResourceStoreDefinition;
  /** The record as the API shows it: system fields plus declared fields. */
  recordSchema: z.ZodObject;
  recordProjector: Projector;
  /** Full declared schema. */
  schema: z.ZodObject;
  /** The declared schema, strict at every depth: what stored data must satisfy after every write. */
  storageSchema: z.ZodType;
  createInputSchema: z.ZodObject;
  patchInputSchema: z.ZodType;
  /** Every variant of every operation, keyed by service path. */
  operations: ReadonlyMap<string, CompiledOperation>;
}
