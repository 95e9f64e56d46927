import { CORE_APP_ROLES, CORE_ORG_ROLES } from '@wildo/shared-lib';
import { Router } from 'express';
import { FrameworkError } from '../../errors/index.js';
import { param, sendData } from '../../routing/index.js';
import { parseContract } from '../../resources/index.js';
import {
  ChangeMemberRoleRequestSchema,
  CreateOrganizationRequestSchema,
  SetApplicationRolesRequestSchema,
  type AccessTokenService,
  type OrganizationsService,
  type PrincipalDirectory,
  type RoleHierarchyResolver,
  type UsersService,
} from '../index.js';
import { createCallerResolver, isWellFormedId } from './organization-caller.js';

/** Options of {@link createOrganizationsRouter}. */
export interface OrganizationsRouterOptions {
  organizations: OrganizationsService;
  users: UsersService;
  directory: PrincipalDirectory;
  roles: RoleHierarchyResolver;
  tokens: AccessTokenService;
}

/**
 * Organizations and memberships: `POST/GET /organizations`, `GET /organizations/:organizationId`,
 * `GET /organizations/:organizationId/members`, `PUT .../members/:userId` (managers and admins, within their own
 * role), `DELETE .../members/:userId` (a member leaves with
 * `DELETE .../members/me` or their own id; the last ORG_ADMIN cannot), and `PUT /users/:userId/app-roles` for
 * application administrators. Outsiders get not-found. Joining is by invitation (`invitations.routes.ts`).
 */
export function createOrganizationsRouter(options: OrganizationsRouterOptions): Router {
  const router = Router();
  const { caller, requireRole } = createCallerResolver(options.directory, options.roles);

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

  // A manager or admin changes roles within their own ceiling: both the member's current role and the new one
  // must be theirs or below (a manager cannot promote to admin, nor demote an admin).
  router.put('/organizations/:organizationId/members/:userId', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_MANAGER);
    const request = parseContract(ChangeMemberRoleRequestSchema, req.body ?? {});
    requireRole(role, request.role);
    sendData(
      res,
      200,
      await options.organizations.changeRole(
        param(req, 'organizationId'),
        param(req, 'userId'),
        request.role,
        (current) => options.roles.satisfies([role ?? ''], [current]),
      ),
    );
  });

  // An admin removes anyone; a member removes themself (`me` or their own id): leaving needs no admin.
  router.delete('/organizations/:organizationId/members/:userId', async (req, res) => {
    const { userId, role } = await caller(res, param(req, 'organizationId'));
    const target = param(req, 'userId') === 'me' ? userId : param(req, 'userId');
    if (target !== userId) requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    const version = await options.organizations.removeMember(param(req, 'organizationId'), target);
    // Leaving changed the caller's authorization version: their token stopped working, so they get a fresh one.
    const session =
      target === userId ? await options.tokens.issueUserAccessToken({ id: userId, authorizationVersion: version }) : {};
    sendData(res, 200, { userId: target, removed: true, ...session });
  });

  router.put('/users/:userId/app-roles', async (req, res) => {
    const { appRoles } = await caller(res);
    if (!options.roles.satisfies(appRoles, [CORE_APP_ROLES.APP_ADMIN])) {
      throw new FrameworkError('FORBIDDEN', 'You are not allowed to perform this operation.', {
        reason: 'role_refused',
      });
    }
    const request = parseContract(SetApplicationRolesRequestSchema, req.body ?? {});
    if (!isWellFormedId(param(req, 'userId'))) throw new FrameworkError('NOT_FOUND', 'No such user.');
    sendData(res, 200, await options.users.setApplicationRoles(param(req, 'userId'), request.roles));
  });

  return router;
}
