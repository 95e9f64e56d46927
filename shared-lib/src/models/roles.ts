/** Application-wide roles, highest first: `APP_ADMIN` implies `APP_USER`. */
export const CORE_APP_ROLES = {
  APP_ADMIN: 'APP_ADMIN',
  APP_USER: 'APP_USER',
} as const;
/** One of {@link CORE_APP_ROLES}. */
export type CoreAppRole = (typeof CORE_APP_ROLES)[keyof typeof CORE_APP_ROLES];

/** Roles inside one organization, highest first: `ORG_ADMIN` > `ORG_MANAGER` > `ORG_MEMBER`. */
export const CORE_ORG_ROLES = {
  ORG_ADMIN: 'ORG_ADMIN',
  ORG_MANAGER: 'ORG_MANAGER',
  ORG_MEMBER: 'ORG_MEMBER',
} as const;
/** One of {@link CORE_ORG_ROLES}. */
export type CoreOrgRole = (typeof CORE_ORG_ROLES)[keyof typeof CORE_ORG_ROLES];

/** Every role the core knows, in one list (ordered from most to least powerful within each family). */
export const CORE_ROLE_HIERARCHIES: readonly (readonly string[])[] = [
  [CORE_APP_ROLES.APP_ADMIN, CORE_APP_ROLES.APP_USER],
  [CORE_ORG_ROLES.ORG_ADMIN, CORE_ORG_ROLES.ORG_MANAGER, CORE_ORG_ROLES.ORG_MEMBER],
];
