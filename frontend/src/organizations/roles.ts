/** Organization roles, highest first. */
export const ORG_ROLES = ['ORG_ADMIN', 'ORG_MANAGER', 'ORG_MEMBER'] as const;
/** Application roles, highest first. */
export const APP_ROLES = ['APP_ADMIN', 'APP_USER'] as const;

const LABELS: Record<string, string> = {
  ORG_ADMIN: 'Admin',
  ORG_MANAGER: 'Manager',
  ORG_MEMBER: 'Member',
  APP_ADMIN: 'Application admin',
  APP_USER: 'Application user',
};

/** A role as people read it. */
export function roleName(role: string): string {
  return LABELS[role] ?? role;
}

/**
 * The roles someone holding `ceiling` may hand out (their own and below): the UI offers only these, the
 * server refuses the others anyway (`role_refused`).
 */
export function rolesWithin(ceiling: string | null | undefined, scale: readonly string[] = ORG_ROLES): string[] {
  const at = ceiling ? scale.indexOf(ceiling) : -1;
  return at === -1 ? [] : scale.slice(at);
}

/** True when `role` is `required` or above it on `scale`. */
export function atLeast(role: string | null | undefined, required: string, scale: readonly string[] = ORG_ROLES) {
  if (!role) return false;
  const at = scale.indexOf(role);
  return at !== -1 && at <= scale.indexOf(required);
}
