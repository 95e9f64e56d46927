import { CORE_ROLE_HIERARCHIES } from '@wildo/shared-lib';
import { injectable } from 'inversify';

/**
 * Expands roles through their hierarchies: `ORG_ADMIN` implies `ORG_MANAGER` and `ORG_MEMBER`;
 * `APP_ADMIN` implies `APP_USER`. Unknown roles stand for themselves.
 */
@injectable()
export class RoleHierarchyResolver {
  private readonly implied = new Map<string, readonly string[]>();

  constructor(hierarchies: readonly (readonly string[])[] = CORE_ROLE_HIERARCHIES) {
    for (const chain of hierarchies) {
      chain.forEach((role, i) => this.implied.set(role, chain.slice(i)));
    }
  }

  /** The roles themselves plus every role they imply, without duplicates. */
  expand(roles: readonly string[]): string[] {
    // One role (what a member holds in an organization): its chain is already without duplicates.
    if (roles.length === 1) return [...(this.implied.get(roles[0] as string) ?? roles)];
    const out = new Set<string>();
    for (const role of roles) for (const implied of this.implied.get(role) ?? [role]) out.add(implied);
    return [...out];
  }

  /** Whether `held` (expanded) includes at least one of `required`. */
  satisfies(held: readonly string[], required: Iterable<string>): boolean {
    const expanded = new Set(this.expand(held));
    for (const role of required) if (expanded.has(role)) return true;
    return false;
  }

  /** Whether `role` is one of the roles `ceiling` implies (a caller may only grant roles at or below its own). */
  isWithin(role: string, ceiling: readonly string[]): boolean {
    return this.expand(ceiling).includes(role);
  }

  /** Whether the role belongs to a known hierarchy. */
  isKnown(role: string): boolean {
    return this.implied.has(role);
  }
}
