import { Router } from 'express';
import { z } from 'zod';
import { parseContract } from '../resources/index.js';
import { param, requirePrincipal, sendData } from '../routing/index.js';
import type { OperationApprovals } from './operation-approvals.service.js';

const DecisionBody = z.strictObject({ decision: z.enum(['approve', 'deny']) });

/**
 * The approvals of operation calls under `/api/v1`:
 * - `GET /approvals`: the signed-in person's pending approvals (every surface), with the arguments and input schema;
 * - `POST /approvals/:approvalId/decision` `{ decision: 'approve' | 'deny' }`: decides one; the caller then retries
 *   the call with `Approval-Id: <id>`.
 */
export function createApprovalsRouter(approvals: OperationApprovals): Router {
  const router = Router();
  router.get('/approvals', async (_req, res) => {
    const principal = requirePrincipal(res);
    sendData(res, 200, principal.kind === 'user' ? await approvals.listPending(principal.userId) : []);
  });
  router.post('/approvals/:approvalId/decision', async (req, res) => {
    const principal = requirePrincipal(res);
    const body = parseContract(DecisionBody, req.body);
    sendData(res, 200, await approvals.decide(principal, param(req, 'approvalId'), body.decision));
  });
  return router;
}
