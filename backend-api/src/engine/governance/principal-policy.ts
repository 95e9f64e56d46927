import type { PrincipalMatcher, ResourceOperationPolicies } from '@wildo/shared-lib';
import { FrameworkError, type RefusalReason } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';

/** The verified facts a policy is matched against: the principal, and its roles in the addressed scope (expanded). */
export interface PolicyCaller {
  principal: AuthenticatedPrincipal;
  roles: readonly string[];
}

/** Whether `matcher` matches the caller; `unknown` when the credential lacks a fact the matcher needs. */
export function matchPrincipal(matcher: PrincipalMatcher, caller: PolicyCaller): boolean | 'unknown' {
  const { principal } = caller;
  switch (matcher.kind) {
    case 'person':
      return principal.kind === 'user' && (matcher.userId === undefined || matcher.userId === principal.userId);
    case 'machine':
      return (
        principal.kind === 'machine' && (matcher.clientId === undefined || matcher.clientId === principal.clientId)
      );
    case 'delegated': {
      if (principal.kind !== 'user' || principal.credential.type !== 'delegated_token') return false;
      if (matcher.clientId === undefined) return true;
      const client = principal.credential.authorizedParty;
      return client === undefined ? 'unknown' : client === matcher.clientId;
    }
    case 'role':
      return caller.roles.includes(matcher.role);
  }
}

/**
 * Judges a caller against an operation's allow and deny lists: null when admitted, else the refusal reason. Deny
 * wins over allow. A deny entry that cannot be evaluated refuses (`identity_not_evaluable`, fail closed); an allow
 * entry that cannot be evaluated admits nobody.
 *
 * @example
 * principalDecision({ allow: [{ kind: 'person' }], deny: [{ kind: 'delegated' }] }, caller); // 'principal_denied' for an MCP client
 */
export function principalDecision(
  policies: Pick<ResourceOperationPolicies, 'allow' | 'deny'>,
  caller: PolicyCaller,
): Extract<RefusalReason, 'principal_denied' | 'principal_not_allowed' | 'identity_not_evaluable'> | null {
  for (const matcher of policies.deny ?? []) {
    const matched = matchPrincipal(matcher, caller);
    if (matched === 'unknown') return 'identity_not_evaluable';
    if (matched) return 'principal_denied';
  }
  if (!policies.allow) return null;
  return policies.allow.some((matcher) => matchPrincipal(matcher, caller) === true) ? null : 'principal_not_allowed';
}

/**
 * Refuses the call (throws `FORBIDDEN` with the reason) when the caller's principal fails the allow and deny lists.
 * The refusal says nothing about the policy itself.
 */
export function enforcePrincipalPolicy(
  policies: Pick<ResourceOperationPolicies, 'allow' | 'deny'>,
  caller: PolicyCaller,
): void {
  const reason = principalDecision(policies, caller);
  if (reason) throw new FrameworkError('FORBIDDEN', 'This caller may not perform this operation.', { reason });
}
