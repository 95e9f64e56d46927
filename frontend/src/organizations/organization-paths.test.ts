import { describe, expect, it } from 'vitest';
import { matchOrganizationPath, organizationPath } from './organization-paths';
import { atLeast, rolesWithin } from './roles';

describe('organization paths', () => {
  it('reads an organization’s sections and its declared assistant views', () => {
    expect(matchOrganizationPath('/organizations/org-1')).toEqual({ organizationId: 'org-1', section: '' });
    expect(matchOrganizationPath('/organizations/org%201/api-keys')).toEqual({
      organizationId: 'org 1',
      section: 'api-keys',
    });
    expect(matchOrganizationPath('/organizations/org-1/views/todo-assistant-view')).toEqual({
      organizationId: 'org-1',
      section: 'assistant',
      viewRef: 'todo-assistant-view',
    });
    expect(organizationPath('org 1', 'usage')).toBe('/organizations/org%201/usage');
    expect(matchOrganizationPath('/organizations/org-1/records/support-tickets')).toEqual({
      organizationId: 'org-1',
      section: 'records',
      resourceType: 'support-tickets',
    });
    expect(organizationPath('org 1', 'records', 'support-tickets')).toBe(
      '/organizations/org%201/records/support-tickets',
    );
  });

  it('refuses unknown sections and malformed ids', () => {
    expect(matchOrganizationPath('/organizations/org-1/secrets')).toBeNull();
    expect(matchOrganizationPath('/organizations/%E0%A4%A/todos')).toBeNull();
    expect(matchOrganizationPath('/organizations')).toBeNull();
    expect(matchOrganizationPath('/organizations/org-1/records/Not%20a%20type')).toBeNull();
    expect(matchOrganizationPath('/organizations/org-1/records')).toBeNull();
  });
});

describe('role ceiling', () => {
  it('offers a role and those below it, nothing for an unknown or missing role', () => {
    expect(rolesWithin('ORG_ADMIN')).toEqual(['ORG_ADMIN', 'ORG_MANAGER', 'ORG_MEMBER']);
    expect(rolesWithin('ORG_MANAGER')).toEqual(['ORG_MANAGER', 'ORG_MEMBER']);
    expect(rolesWithin('ORG_MEMBER')).toEqual(['ORG_MEMBER']);
    expect(rolesWithin(null)).toEqual([]);
    expect(rolesWithin('APP_ADMIN')).toEqual([]);
    expect(atLeast('ORG_MANAGER', 'ORG_MANAGER')).toBe(true);
    expect(atLeast('ORG_MEMBER', 'ORG_MANAGER')).toBe(false);
    expect(atLeast(undefined, 'ORG_MEMBER')).toBe(false);
  });
});
