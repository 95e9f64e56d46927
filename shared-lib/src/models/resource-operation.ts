/** The operations every resource can declare; their values appear in tool names and function refs. */
export enum CoreResourceOperation {
  CREATE = 'create',
  READ = 'read',
  UPDATE = 'update',
  DELETE = 'delete',
  LIST = 'list',
  SEARCH = 'search',
}

/** How a variant of an operation is reached. `API_CALL` variants are served over the network surfaces. */
export enum ResourceOperationVariantType {
  API_CALL = 'API_CALL',
  /** Reachable only from server code through the services registry; never routed. */
  INTERNAL = 'INTERNAL',
}

/** The declared risk of an operation; MCP annotations and audit severity derive from it. */
export enum ResourceOperationRiskLevel {
  LOW = 'LOW',
  MEDIUM = 'MEDIUM',
  HIGH = 'HIGH',
  CRITICAL = 'CRITICAL',
}

/** Lifecycle of an operation variant: `retired` is neither listed nor callable. */
export const RESOURCE_OPERATION_LIFECYCLES = ['experimental', 'beta', 'stable', 'deprecated', 'retired'] as const;
/** One of {@link RESOURCE_OPERATION_LIFECYCLES}. */
export type ResourceOperationLifecycle = (typeof RESOURCE_OPERATION_LIFECYCLES)[number];

/**
 * What an operation does to the world; drives read-only / destructive / idempotent hints. `destructive` removes
 * stored data (a DELETE); `irreversible` cannot be undone once it ran (a payment, a cancellation, a sent message).
 */
export enum ResourceOperationEffect {
  READ = 'read',
  WRITE = 'write',
  DESTRUCTIVE = 'destructive',
  IRREVERSIBLE = 'irreversible',
}

/** An effect as a declaration may write it: the enum member or its value (`'read' | 'write' | 'irreversible' | ...`). */
export type ResourceOperationEffectName = ResourceOperationEffect | `${ResourceOperationEffect}`;
