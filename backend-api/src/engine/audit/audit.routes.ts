import { CORE_APP_ROLES } from '@wildo/shared-lib';
import { Router, type Response } from 'express';
import { z } from 'zod';
import { FrameworkError } from '../errors/index.js';
import { readUserSnapshot, type PrincipalDirectory, type RoleHierarchyResolver } from '../identity/index.js';
import { parseContract } from '../resources/index.js';
import { requirePrincipal, sendData } from '../routing/index.js';
import type { AuditTrail } from './audit-trail.service.js';

const text = z.string().min(1).max(200);
const AuditQueryParams = z.strictObject({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  operation: text.optional(),
  principal: text.optional(),
  outcome: z.enum(['executed', 'refused', 'failed']).optional(),
  reason: text.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, 'a cursor returned by this endpoint')
    .optional(),
});

/** What the audit routes need: the trail, and who holds the application's admin role. */
export interface AuditRouterOptions {
  audit: AuditTrail;
  directory: PrincipalDirectory;
  roles: RoleHierarchyResolver;
}

/**
 * The audit trail for the application's admins, under `/api/v1`:
 * - `GET /audit/entries?from&to&operation&principal&outcome&reason&limit&cursor`: entries newest first, a page at a
 *   time (`nextCursor` continues);
 * - `GET /audit/chain`: the chain check (`ok`, and the first entry whose link does not hold).
 */
export function createAuditRouter(options: AuditRouterOptions): Router {
  const router = Router();
  const requireAdmin = async (res: Response) => {
    const principal = requirePrincipal(res);
    const snapshot = principal.kind === 'user' ? await readUserSnapshot(options.directory, principal.userId) : null;
    if (!snapshot || !options.roles.satisfies(snapshot.appRoles, [CORE_APP_ROLES.APP_ADMIN]))
      throw new FrameworkError('FORBIDDEN', 'The audit trail is for the application’s administrators.', {
        reason: 'role_refused',
      });
  };
  router.get('/audit/entries', async (req, res) => {
    await requireAdmin(res);
    const query = parseContract(AuditQueryParams, req.query);
    const page = await options.audit.query({
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
      ...(query.operation ? { operation: query.operation } : {}),
      ...(query.principal ? { principal: query.principal } : {}),
      ...(query.outcome ? { outcome: query.outcome } : {}),
      ...(query.reason ? { reason: query.reason } : {}),
      ...(query.cursor ? { cursor: query.cursor } : {}),
      limit: query.limit ?? 50,
    });
    sendData(res, 200, page.data, page.nextCursor);
  });
  router.get('/audit/chain', async (_req, res) => {
    await requireAdmin(res);
    sendData(res, 200, await options.audit.verify());
  });
  return router;
}
