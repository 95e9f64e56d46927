import { CORE_APP_ROLES, CORE_ORG_ROLES } from '@wildo/shared-lib';
import { Router, type Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import { param, requirePrincipal, sendData } from '../http/http-state.js';
import { parseContract } from '../resources/operation-input.js';
import type { RoleHierarchyResolver } from '../resources/role-hierarchy.service.js';
import { readUserSnapshot } from './authenticator.service.js';
import {
  AddMemberRequestSchema,
  ChangeMemberRoleRequestSchema,
  CreateOrganizationRequestSchema,
  SetApplicationRolesRequestSchema,
} from './identity.schema.js';
import type { OrganizationsService } from './organizations.service.js';
import type { PrincipalDirectory } from './principal-directory.js';
import type { UsersService } from './users.service.js';

/** Options of {@link createOrganizationsRouter}. */
export interface OrganizationsRouterOptions {
  organizations: OrganizationsService;
  users: UsersService;
  directory: PrincipalDirectory;
  roles: RoleHierarchyResolver;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Organizations and memberships: `POST/GET /organizations`, `GET /organizations/:organizationId`,
 * `GET/POST /organizations/:organizationId/members`, `PUT/DELETE .../members/:userId`, and
 * `PUT /users/:userId/app-roles` for application administrators. Outsiders get not-found.
 */
export function createOrganizationsRouter(options: OrganizationsRouterOptions): Router {
  const router = Router();

  // The caller's user id and, for an organization path, their role there (not-found for non-members).
  const caller = async (res: Response, organizationId?: string) => {
    const principal = requirePrincipal(res);
    if (principal.kind !== 'user') throw new FrameworkError('FORBIDDEN', 'This endpoint is for signed-in users.', { reason: 'principal_not_allowed' });
    const snapshot = await readUserSnapshot(options.directory, principal.userId);
    if (organizationId === undefined) return { userId: principal.userId, role: undefined, appRoles: snapshot?.appRoles ?? [] };
    const role = ID.test(organizationId) ? snapshot?.memberships.get(organizationId) : undefined;
    if (!role) throw new FrameworkError('NOT_FOUND', 'No such organization.');
    return { userId: principal.userId, role, appRoles: snapshot?.appRoles ?? [] };
  };
  const requireRole = (held: string | undefined, required: string) => {
    if (!held || !options.roles.satisfies([held], [required])) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', { reason: 'role_refused' });
    }
  };

  router.post('/organizations', async (req, res) => {
    const { userId } = await caller(res);
    const { name } = parseContract(CreateOrganizationRequestSchema, req.body ?? {});
    sendData(res, 201, await options.organizations.create(userId, name));
  });

  router.get('/organizations', async (_req, res) => {
    const { userId } = await caller(res);
    sendData(res, 200, await options.organizations.listForUser(userId));
  });

  router.get('/organizations/:organizationId', async (req, res) => {
    const { userId } = await caller(res, param(req, 'organizationId'));
    const organization = await options.organizations.getForMember(param(req, 'organizationId'), userId);
    if (!organization) throw new FrameworkError('NOT_FOUND', 'No such organization.');
    sendData(res, 200, organization);
  });

  router.get('/organizations/:organizationId/members', async (req, res) => {
    await caller(res, param(req, 'organizationId'));
    sendData(res, 200, await options.organizations.listMembers(param(req, 'organizationId')));
  });

  router.post('/organizations/:organizationId/members', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    const request = parseContract(AddMemberRequestSchema, req.body ?? {});
    sendData(res, 201, await options.organizations.addMember(param(req, 'organizationId'), request.email, request.role));
  });

  router.put('/organizations/:organizationId/members/:userId', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    const request = parseContract(ChangeMemberRoleRequestSchema, req.body ?? {});
    sendData(res, 200, await options.organizations.changeRole(param(req, 'organizationId'), param(req, 'userId'), request.role));
  });

  router.delete('/organizations/:organizationId/members/:userId', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    await options.organizations.removeMember(param(req, 'organizationId'), param(req, 'userId'));
    sendData(res, 200, { userId: param(req, 'userId'), removed: true });
  });

  router.put('/users/:userId/app-roles', async (req, res) => {
    const { appRoles } = await caller(res);
    if (!options.roles.satisfies(appRoles, [CORE_APP_ROLES.APP_ADMIN])) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', { reason: 'role_refused' });
    }
    const request = parseContract(SetApplicationRolesRequestSchema, req.body ?? {});
    if (!ID.test(param(req, 'userId'))) throw new FrameworkError('NOT_FOUND', 'No such user.');
    sendData(res, 200, await options.users.setApplicationRoles(param(req, 'userId'), request.roles));
  });

  return router;
}
