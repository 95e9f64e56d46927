import { z } from 'zod';

/**
 * Why a coding-agent run stopped. Only `END_TURN` reports a finished turn; a parked run is asking for input,
 * and no stop reason is acceptance of the changes (the host inspects the change set).
 */
export enum CodingAgent_StopReason {
  END_TURN = 'END_TURN',
  MAX_TOKENS = 'MAX_TOKENS',
  MAX_TURN_REQUESTS = 'MAX_TURN_REQUESTS',
  REFUSAL = 'REFUSAL',
  CANCELLED = 'CANCELLED',
  PARKED = 'PARKED',
}

/** A coding-agent task: the rendered prompt, or the operator's answer resuming an existing session. */
export const CodingAgent_RunTaskInputSchema = z.object({
  prompt: z.string().min(1),
  continuationOfSessionId: z.string().min(1).optional(),
});

/** What a coding-agent run reports: its last message and why it stopped. */
export const CodingAgent_RunTaskOutputSchema = z.object({
  finalMessage: z.string(),
  stopReason: z.enum(CodingAgent_StopReason),
  sessionId: z.string().optional(),
});
export type CodingAgent_RunTaskOutput = z.infer<typeof CodingAgent_RunTaskOutputSchema>;

/** Per-call context of a coding-agent run. */
export const CodingAgent_OperationContext_BaseSchema = z.object({ callTimestamp: z.string() });
