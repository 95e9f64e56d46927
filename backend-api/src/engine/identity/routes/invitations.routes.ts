import { CORE_ORG_ROLES } from '@wildo/shared-lib';
import { Router, type Request, type Response } from 'express';
import { FrameworkError } from '../../errors/index.js';
import { param, sendData } from '../../routing/index.js';
import { parseContract } from '../../resources/index.js';
import {
  CreateInvitationRequestSchema,
  type AccessTokenService,
  type InvitationsService,
  type OrganizationsService,
  type PrincipalDirectory,
  type RoleHierarchyResolver,
} from '../index.js';
import { createCallerResolver, isWellFormedId } from './organization-caller.js';

/** Options of {@link createInvitationsRouter}. */
export interface InvitationsRouterOptions {
  invitations: InvitationsService;
  organizations: OrganizationsService;
  tokens: AccessTokenService;
  directory: PrincipalDirectory;
  roles: RoleHierarchyResolver;
}

/**
 * Invitations. Admins: `POST /organizations/:organizationId/invitations` (also answered at the older
 * `POST .../members`), `GET .../invitations`, `POST .../invitations/:invitationId/revoke`. The invited person:
 * `GET /invitations`, `POST /invitations/:invitationId/accept`, `POST /invitations/:invitationId/decline`.
 * Accepting changes the person's authorization version, so its answer carries a fresh access token.
 *
 * @example
 * api.use(createInvitationsRouter({ invitations, organizations, tokens, directory, roles }));
 */
export function createInvitationsRouter(options: InvitationsRouterOptions): Router {
  const router = Router();
  const { caller, requireRole } = createCallerResolver(options.directory, options.roles);
  const invitationId = (req: Request) => {
    const id = param(req, 'invitationId');
    if (!isWellFormedId(id)) throw new FrameworkError('NOT_FOUND', 'No such invitation.');
    return id;
  };

  const invite = async (req: Request, res: Response) => {
    const { userId, role } = await caller(res, param(req, 'organizationId'));
    options.invitations.assertMayInvite(role);
    const request = parseContract(CreateInvitationRequestSchema, req.body ?? {});
    sendData(
      res,
      201,
      await options.invitations.invite(param(req, 'organizationId'), { userId, role }, request.email, request.role),
    );
  };
  router.post('/organizations/:organizationId/invitations', invite);
  // The older way to add a member now invites: nobody becomes a member without accepting.
  router.post('/organizations/:organizationId/members', invite);

  router.get('/organizations/:organizationId/invitations', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    sendData(res, 200, await options.invitations.listSent(param(req, 'organizationId')));
  });

  router.post('/organizations/:organizationId/invitations/:invitationId/revoke', async (req, res) => {
    const { role } = await caller(res, param(req, 'organizationId'));
    requireRole(role, CORE_ORG_ROLES.ORG_ADMIN);
    sendData(res, 200, await options.invitations.revoke(param(req, 'organizationId'), invitationId(req)));
  });

  router.get('/invitations', async (_req, res) => {
    const { userId } = await caller(res);
    sendData(res, 200, await options.invitations.listReceived(userId));
  });

  router.post('/invitations/:invitationId/accept', async (req, res) => {
    const { userId } = await caller(res);
    const accepted = await options.invitations.accept(userId, invitationId(req));
    const organization = await options.organizations.getForMember(accepted.organizationId, userId);
    const session = await options.tokens.issueUserAccessToken({
      id: userId,
      authorizationVersion: accepted.authorizationVersion,
    });
    sendData(res, 200, { organization, ...session });
  });

  router.post('/invitations/:invitationId/decline', async (req, res) => {
    const { userId } = await caller(res);
    sendData(res, 200, await options.invitations.decline(userId, invitationId(req)));
  });

  return router;
}
