import { CORE_ORG_ROLES, ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import { enforcePrincipalPolicy, matchPrincipal, principalDecision, type PolicyCaller } from './principal-policy.js';

const person = (type: 'access_token' | 'delegated_token', authorizedParty?: string): AuthenticatedPrincipal => ({
  kind: 'user',
  userId: 'u-1',
  authorizationVersion: 1,
  credential: { type, id: 't-1', ...(authorizedParty ? { authorizedParty } : {}) },
});
const machine: AuthenticatedPrincipal = {
  kind: 'machine',
  executionType: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE,
  clientId: 'key-1',
  organizationId: 'o-1',
  roles: [CORE_ORG_ROLES.ORG_MEMBER],
  credential: { type: 'api_key', id: 'key-1' },
};
const caller = (principal: AuthenticatedPrincipal, roles: string[] = [CORE_ORG_ROLES.ORG_MEMBER]): PolicyCaller => ({
  principal,
  roles,
});

describe('matchPrincipal', () => {
  it('matches a person by kind and by user id, whatever credential carried them', () => {
    expect(matchPrincipal({ kind: 'person' }, caller(person('access_token')))).toBe(true);
    expect(matchPrincipal({ kind: 'person' }, caller(person('delegated_token', 'c-1')))).toBe(true);
    expect(matchPrincipal({ kind: 'person', userId: 'u-1' }, caller(person('access_token')))).toBe(true);
    expect(matchPrincipal({ kind: 'person', userId: 'u-2' }, caller(person('access_token')))).toBe(false);
    expect(matchPrincipal({ kind: 'person' }, caller(machine))).toBe(false);
  });

  it('matches a machine by kind and by key or client id', () => {
    expect(matchPrincipal({ kind: 'machine' }, caller(machine))).toBe(true);
    expect(matchPrincipal({ kind: 'machine', clientId: 'key-1' }, caller(machine))).toBe(true);
    expect(matchPrincipal({ kind: 'machine', clientId: 'key-2' }, caller(machine))).toBe(false);
    expect(matchPrincipal({ kind: 'machine' }, caller(person('access_token')))).toBe(false);
  });

  it('matches a delegated token by its client, and cannot judge one that names none', () => {
    expect(matchPrincipal({ kind: 'delegated' }, caller(person('delegated_token', 'c-1')))).toBe(true);
    expect(matchPrincipal({ kind: 'delegated', clientId: 'c-1' }, caller(person('delegated_token', 'c-1')))).toBe(true);
    expect(matchPrincipal({ kind: 'delegated', clientId: 'c-2' }, caller(person('delegated_token', 'c-1')))).toBe(
      false,
    );
    expect(matchPrincipal({ kind: 'delegated', clientId: 'c-1' }, caller(person('delegated_token')))).toBe('unknown');
    expect(matchPrincipal({ kind: 'delegated' }, caller(person('access_token')))).toBe(false);
  });

  it('matches a role the caller holds in the addressed scope (expanded through the hierarchy)', () => {
    const admin = caller(person('access_token'), [
      CORE_ORG_ROLES.ORG_ADMIN,
      CORE_ORG_ROLES.ORG_MANAGER,
      CORE_ORG_ROLES.ORG_MEMBER,
    ]);
    expect(matchPrincipal({ kind: 'role', role: CORE_ORG_ROLES.ORG_MANAGER }, admin)).toBe(true);
    expect(matchPrincipal({ kind: 'role', role: CORE_ORG_ROLES.ORG_MANAGER }, caller(machine))).toBe(false);
  });
});

describe('principalDecision', () => {
  const policies = { allow: [{ kind: 'role', role: CORE_ORG_ROLES.ORG_MEMBER }], deny: [{ kind: 'machine' }] } as const;

  it('admits a caller an allow entry names (the control)', () => {
    expect(principalDecision(policies, caller(person('access_token')))).toBeNull();
  });

  it('denies a caller a deny entry names, even when an allow entry names it too', () => {
    expect(principalDecision(policies, caller(machine))).toBe('principal_denied');
  });

  it('refuses a caller no allow entry names', () => {
    expect(principalDecision(policies, caller(person('access_token'), []))).toBe('principal_not_allowed');
  });

  it('admits everyone not denied when there is no allow list', () => {
    expect(principalDecision({ deny: [{ kind: 'machine' }] }, caller(person('access_token'), []))).toBeNull();
  });

  it('fails closed when a deny entry cannot be judged, and an allow entry that cannot be judged admits nobody', () => {
    const unnamed = caller(person('delegated_token'));
    expect(principalDecision({ deny: [{ kind: 'delegated', clientId: 'c-1' }] }, unnamed)).toBe(
      'identity_not_evaluable',
    );
    expect(principalDecision({ allow: [{ kind: 'delegated', clientId: 'c-1' }] }, unnamed)).toBe(
      'principal_not_allowed',
    );
  });

  it('refuses as FORBIDDEN with the reason and nothing about the policy', () => {
    expect(() => enforcePrincipalPolicy(policies, caller(machine))).toThrow(
      expect.objectContaining({
        code: 'FORBIDDEN',
        reason: 'principal_denied',
        message: 'This caller may not perform this operation.',
      }),
    );
  });
});
