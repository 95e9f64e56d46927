import type { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import type { TenantScope } from '../persistence/index.js';

/** The entry point a call came through; rate-limit buckets are kept per surface. */
export type DispatchSurface = 'rest' | 'mcp' | 'a2a' | 'tool' | 'internal';

/**
 * Everything an operation knows about its caller, built from verified authentication only. Business
 * code reads the principal here (a machine-created record has no user id) and never from the payload.
 */
export interface ExecutionContext {
  executionType: ExecutionContext_ExecutionType;
  initiatorIds: { userId?: string; organizationId?: string; clientId?: string };
  /** The caller's roles in the addressed scope, expanded through the role hierarchy. */
  initiatorRoles: readonly string[];
  /** Whose records the operation reads and writes. */
  tenant: TenantScope;
  surface: DispatchSurface;
  requestId: string;
  callTimestamp: string;
  /** The verified principal (absent only for engine-internal SYSTEM contexts). */
  principal?: AuthenticatedPrincipal;
}

/** The key that identifies a principal in rate-limit buckets: a user, an organization's machines, or a client. */
export function principalBucketKey(
  context: ExecutionContext,
  keyBy: 'principal' | 'organization' = 'principal',
): string {
  const { initiatorIds } = context;
  if (keyBy === 'organization' && initiatorIds.organizationId) return `org:${initiatorIds.organizationId}`;
  if (initiatorIds.userId) return `user:${initiatorIds.userId}`;
  if (initiatorIds.clientId) return `client:${initiatorIds.clientId}`;
  return 'system';
}
