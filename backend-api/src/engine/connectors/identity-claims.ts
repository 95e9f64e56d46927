import { principalBucketKey, type ExecutionContext } from '../resources/execution-context.js';
import type { IdentityClaim } from './connector.types.js';

/**
 * One claim of the caller's verified identity, as the database receives it; undefined when the caller has none
 * (an application-scoped call has no organization, a machine has no user). Never read from the input.
 */
export function identityClaimOf(context: ExecutionContext, claim: IdentityClaim): string | undefined {
  const ids = context.initiatorIds;
  switch (claim) {
    case 'principal': {
      if (!context.principal) return undefined;
      const key = principalBucketKey(context);
      return key === 'system' ? undefined : key;
    }
    case 'userId':
      return ids.userId || undefined;
    case 'organizationId':
      return ids.organizationId || undefined;
    case 'clientId':
      return ids.clientId || undefined;
  }
}
