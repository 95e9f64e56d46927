import { z } from 'zod';
import { CoreResourceOperation } from '../models/resource-operation.js';
import { ResourcePrimaryScope } from '../models/resource-scope.js';

// What the conversational routes of actor systems send to the browser: approval requests, the
// pending-approval queue and the server-sent events of a turn. The backend produces these shapes;
// the frontend validates every one it receives.

const nonEmpty = () => z.string().min(1);
const isoDateTime = () => z.iso.datetime({ offset: true });
const argumentsRecord = () => z.record(z.string(), z.unknown());

/** A tool call paused until its owner approves or denies it (`PendingApproval` on the backend). */
export const FlowsActors_ApprovalRequestSchema = z.object({
  approvalId: nonEmpty(),
  executionId: nonEmpty(),
  functionRef: nonEmpty(),
  toolCallId: nonEmpty(),
  arguments: argumentsRecord(),
  /** When true the person may replace the arguments (sent back as `modifiedArguments`). */
  allowArgumentModification: z.boolean(),
  createdAt: isoDateTime(),
  expiresAt: isoDateTime(),
  /** Proof binding a decision to this exact call; sent back unchanged with the decision. */
  approvalToken: nonEmpty(),
});
/** A tool call paused until its owner approves or denies it. */
export type FlowsActors_ApprovalRequest = z.infer<typeof FlowsActors_ApprovalRequestSchema>;

/** The caller's pending approvals (`GET /flows-actors/approvals` answers `{ data: approvals }`). */
export const FlowsActors_ApprovalQueueSchema = z.object({ approvals: z.array(FlowsActors_ApprovalRequestSchema) });
/** The caller's pending approvals, oldest first. */
export type FlowsActors_ApprovalQueue = z.infer<typeof FlowsActors_ApprovalQueueSchema>;

/** `POST /flows-actors/approvals/:approvalId/decision` body. */
export const FlowsActors_ApprovalDecisionRequestSchema = z.object({
  approvalToken: nonEmpty().max(200),
  decision: z.enum(['approve', 'deny']),
  modifiedArguments: argumentsRecord().optional(),
});
/** A person's answer to a pending approval. */
export type FlowsActors_ApprovalDecisionRequest = z.infer<typeof FlowsActors_ApprovalDecisionRequestSchema>;

/** The client-safe error envelope's content (HTTP error bodies and the `error` event). */
export const FlowsActors_WireErrorSchema = z.object({
  code: nonEmpty(),
  message: z.string(),
  reason: z.string().optional(),
  requestId: z.string().optional(),
});
/** A client-safe error: code, message, optional reason and request id. */
export type FlowsActors_WireError = z.infer<typeof FlowsActors_WireErrorSchema>;

/** What a tool call produced, as the browser sees it. */
export const FlowsActors_ToolOutcomeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: nonEmpty(), message: z.string(), reason: z.string().optional() }),
  }),
]);
/** A tool call's result or refusal. */
export type FlowsActors_ToolOutcome = z.infer<typeof FlowsActors_ToolOutcomeSchema>;

const UsageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() });

/**
 * One server-sent event of a turn, discriminated by `type` (the SSE `event:` name). On the wire the
 * `error` event's data is the error envelope `{ error }` without a `type`; clients add the event name.
 */
export const FlowsActors_TurnEventSchema = z.discriminatedUnion('type', [
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
    outcome: FlowsActors_ToolOutcomeSchema,
  }),
  z.object({ type: z.literal('approval_required'), approval: FlowsActors_ApprovalRequestSchema }),
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
    usage: UsageSchema,
  }),
  z.object({ type: z.literal('error'), error: FlowsActors_WireErrorSchema }),
]);
/** One server-sent event of a turn. */
export type FlowsActors_TurnEvent = z.infer<typeof FlowsActors_TurnEventSchema>;
/** The `type` (SSE event name) of a turn event. */
export type FlowsActors_TurnEventType = FlowsActors_TurnEvent['type'];

/** Where a frontend view is mounted: in the application's own shell. */
export enum FrontendView_ScopeMode {
  APPLICATION = 'APPLICATION',
}

/** How the host lays a view out: `Default` is its standard arrangement (the conversation, approvals beside it). */
export type FlowsActorsView_LayoutPreset = 'Default';

/** A browser view onto an actor system: where it lives, what it talks to, and how it is laid out. */
export interface FlowsActorsViewDefinition {
  /** Unique view ref (kebab-case). */
  ref: string;
  /** Where the view is mounted. */
  scope: FrontendView_ScopeMode;
  /** True when the view has its own address (a route) rather than only being embedded. */
  isAddressable: boolean;
  /**
   * The resource operation the view amounts to (READ for an assistant that reads and proposes). It describes
   * the view; it authorizes nothing: every call the view makes is authorized on its own.
   */
  operationLike: CoreResourceOperation;
  /** The tenant the view works in: ORGANIZATIONS views are addressed under an organization. */
  primaryScope: ResourcePrimaryScope;
  /** The actor system the view talks to. */
  systemRef: string;
  layoutPreset: FlowsActorsView_LayoutPreset;
}
