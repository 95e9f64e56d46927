import * as z from 'zod/mini';
import { requestJson } from '../api/api.client';
import { listPendingApprovals } from '../assistant/assistant.client';

/** A call waiting for the person's approval (any surface but conversations): `GET /api/v1/approvals`. */
export interface OperationApproval {
  id: string;
  surface: string;
  operation: string;
  title: string;
  description: string | null;
  effect: string;
  organizationId: string | null;
  recordId: string | null;
  arguments: unknown;
  inputSchema: unknown;
  status: string;
  createdAt: string;
  expiresAt: string;
}

const OperationApprovalSchema: z.ZodMiniType<OperationApproval> = z.object({
  id: z.string(),
  surface: z.string(),
  operation: z.string(),
  title: z.string(),
  description: z.nullable(z.string()),
  effect: z.string(),
  organizationId: z.nullable(z.string()),
  recordId: z.nullable(z.string()),
  arguments: z.unknown(),
  inputSchema: z.unknown(),
  status: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/** Every call waiting for the person: calls of operations that declare approval, and paused assistant tool calls. */
export async function loadApprovals(accessToken: string, signal: AbortSignal) {
  const [operations, conversations] = await Promise.all([
    requestJson('/api/v1/approvals', {
      accessToken,
      signal,
      schema: z.object({ data: z.array(OperationApprovalSchema) }),
    }),
    listPendingApprovals(accessToken, signal),
  ]);
  return { operations: operations.data, conversations };
}

/** Approves or denies one call. */
export async function decideApproval(accessToken: string, id: string, decision: 'approve' | 'deny'): Promise<void> {
  await requestJson(`/api/v1/approvals/${encodeURIComponent(id)}/decision`, {
    method: 'POST',
    accessToken,
    body: { decision },
    schema: z.object({ data: OperationApprovalSchema }),
  });
}
