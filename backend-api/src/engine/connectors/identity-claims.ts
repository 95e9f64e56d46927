import type { ExecutionContext } from '../resources/index.js';
import type { IdentityClaim } from './connector.types.js';

/**
 * One claim of the caller's verified identity, as the database receives it; undefined when the caller has none
 * (an application-scoped call has no organization, a machine has no user). Never read from the input. The
 * principal is `user:<id>` for a person and `client:<id>` for an API key or OAuth client.
 */
export function identityClaimOf(context: ExecutionContext, claim: IdentityClaim): string | undefined {
  const ids = context.initiatorIds;
  switch (claim) {
    case 'principal': {
      if (!context.principal) return undefined;
      if (ids.userId) return `user:${ids.userId}`;
      return ids.clientId ? `client:${ids.clientId}` : undefined;
    }
    case 'userId':
      return ids.userId || undefined;
    case 'organizationId':
      return ids.organizationId || undefined;
    case 'clientId':
      return ids.clientId || undefined;
  }
}
