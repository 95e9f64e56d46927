import type { FlowsActors_ApprovalRequest, FlowsActors_ToolOutcome, FlowsActors_TurnEvent } from '@wildo/shared-lib';
import * as z from 'zod/mini';

// The wire shapes of the todo assistant, re-stated with zod/mini (the shared-lib package root is too heavy
// for the browser bundle; see api/contracts.ts). The type annotations keep them in step with
// `agents.wire.ts` in @wildo/shared-lib, and assistant.contracts.test.ts checks both judge samples alike.

const nonEmpty = () => z.string().check(z.minLength(1));
const isoDateTime = () => z.iso.datetime({ offset: true });
const argumentsRecord = () => z.record(z.string(), z.unknown());

/** A paused tool call waiting for the person's decision. */
export const ApprovalRequestSchema: z.ZodMiniType<FlowsActors_ApprovalRequest> = z.object({
  approvalId: nonEmpty(),
  executionId: nonEmpty(),
  functionRef: nonEmpty(),
  toolCallId: nonEmpty(),
  arguments: argumentsRecord(),
  allowArgumentModification: z.boolean(),
  createdAt: isoDateTime(),
  expiresAt: isoDateTime(),
  approvalToken: nonEmpty(),
});

const ToolOutcomeSchema: z.ZodMiniType<FlowsActors_ToolOutcome> = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: nonEmpty(), message: z.string(), reason: z.optional(z.string()) }),
  }),
]);

/** One server-sent event of a turn, with the SSE event name as `type`. */
export const TurnEventSchema: z.ZodMiniType<FlowsActors_TurnEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('execution'), executionId: nonEmpty(), systemRef: nonEmpty(), agentRef: nonEmpty() }),
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  z.object({
    type: z.literal('tool_call'),
    toolCallId: nonEmpty(),
    functionRef: nonEmpty(),
    arguments: argumentsRecord(),
  }),
  z.object({
    type: z.literal('tool_result'),
    toolCallId: nonEmpty(),
    functionRef: nonEmpty(),
    outcome: ToolOutcomeSchema,
  }),
  z.object({ type: z.literal('approval_required'), approval: ApprovalRequestSchema }),
  z.object({
    type: z.literal('approval_decided'),
    approvalId: nonEmpty(),
    toolCallId: nonEmpty(),
    decision: z.enum(['approve', 'deny']),
    arguments: argumentsRecord(),
  }),
  z.object({
    type: z.literal('turn_completed'),
    status: z.enum(['completed', 'awaiting_approval', 'max_steps']),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
  }),
  z.object({
    type: z.literal('error'),
    error: z.object({
      code: nonEmpty(),
      message: z.string(),
      reason: z.optional(z.string()),
      requestId: z.optional(z.string()),
    }),
  }),
]);

/** `GET /api/v1/flows-actors/approvals` success body. */
export const ApprovalListResponseSchema = z.object({ data: z.array(ApprovalRequestSchema) });

/** One of the caller's organizations. */
export const OrganizationSchema = z.object({ _id: nonEmpty(), name: z.string(), role: z.optional(z.string()) });
/** One of the caller's organizations (`_id`, `name`, the caller's `role`). */
export type Organization = z.infer<typeof OrganizationSchema>;

/** `GET /api/v1/organizations` success body. */
export const OrganizationListSchema = z.object({ data: z.array(OrganizationSchema) });
