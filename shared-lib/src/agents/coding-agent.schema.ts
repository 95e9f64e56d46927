import { z } from 'zod';

/** The one operation a coding agent performs: run a task in a workspace over the Agent Client Protocol. */
export enum CodingAgent_OperationKey {
  RUN_TASK = 'RUN_TASK',
}

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
  /** A turn ran longer than the execution profile's `turnTimeoutMs`; the turn was cancelled and the agent stopped. */
  TURN_TIMEOUT = 'TURN_TIMEOUT',
}

/** A coding-agent task: the rendered prompt, or the operator's answer resuming an existing session. */
export const CodingAgent_RunTaskInputSchema = z.object({
  prompt: z.string().min(1),
  continuationOfSessionId: z.string().min(1).optional(),
});

/** What a coding-agent run reports: its last message and why it stopped, with the session and run to look up. */
export const CodingAgent_RunTaskOutputSchema = z.object({
  finalMessage: z.string(),
  stopReason: z.enum(CodingAgent_StopReason),
  /** The agent's session: pass it as `continuationOfSessionId` to answer a parked run or to follow up. */
  sessionId: z.string().optional(),
  /** The stored run record (permission requests and answers, file and terminal calls, turns). */
  runId: z.string().optional(),
});
export type CodingAgent_RunTaskOutput = z.infer<typeof CodingAgent_RunTaskOutputSchema>;

/** Per-call context of a coding-agent run. */
export const CodingAgent_OperationContext_BaseSchema = z.object({ callTimestamp: z.string() });
