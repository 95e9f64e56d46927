import { z } from 'zod';
import { FrameworkError } from '../errors/index.js';
import {
  reachableMemberships,
  readUserSnapshot,
  type AuthenticatedPrincipal,
  type PrincipalDirectory,
} from '../identity/index.js';

/** A tool argument that does not satisfy the tool's input schema, at `path`. */
export const toolInputInvalid = (path: string, expected: string) =>
  new FrameworkError('VALIDATION_FAILED', 'The arguments do not satisfy the tool’s input schema.', {
    reason: 'input_invalid',
    problems: [{ path, expected }],
  });

/** The `organizationId` argument of an organization-scoped tool. */
export const organizationIdArgument = () =>
  z.string().min(1).max(64).optional().describe('Organization to act in; defaults to your only organization.');

/**
 * The organization an organization-scoped tool call acts in: the `organizationId` argument, the machine's own
 * organization, or the only membership the person's credential reaches (none or several: the argument is
 * required). Whether the caller may act there is decided by the dispatch path, not here.
 */
export async function callOrganization(
  directory: PrincipalDirectory,
  principal: AuthenticatedPrincipal,
  requested: unknown,
): Promise<string> {
  if (requested !== undefined) {
    if (typeof requested !== 'string' || requested.length === 0) throw toolInputInvalid('organizationId', 'string');
    return requested;
  }
  if (principal.kind === 'machine') {
    if (principal.organizationId) return principal.organizationId;
    throw toolInputInvalid('organizationId', 'required');
  }
  const snapshot = await readUserSnapshot(directory, principal.userId);
  const memberships = snapshot ? [...reachableMemberships(principal, snapshot).keys()] : [];
  if (memberships.length === 1) return memberships[0] as string;
  throw toolInputInvalid('organizationId', 'the id of one of your organizations');
}
