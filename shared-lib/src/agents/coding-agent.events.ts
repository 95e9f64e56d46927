import { z } from 'zod';
import { CodingAgent_StopReason } from './coding-agent.schema.js';

/** How the runner answered one of the agent's requests (a permission, a file, a terminal). */
export const CodingAgent_DecisionSchema = z.enum(['allowed', 'refused', 'cancelled']);
/** One of {@link CodingAgent_DecisionSchema}. */
export type CodingAgent_Decision = z.infer<typeof CodingAgent_DecisionSchema>;

/**
 * Why the runner refused a request: a tool category above the permission ceiling, a path that is not absolute,
 * holds `..`, leaves the workspace, passes through a symbolic link, is hard-linked elsewhere or is outside the
 * task's permitted locations; a permission request offering no single-use allow option; a missing or oversized
 * file; a request made after the turn was cancelled; a method the ceiling does not offer.
 */
export const CodingAgent_RefusalReasonSchema = z.enum([
  'above_ceiling',
  'not_absolute',
  'dot_segments',
  'outside_workspace',
  'symlink',
  'hard_link',
  'not_permitted',
  'no_single_use_option',
  'not_found',
  'too_large',
  'cancelled',
  'unsupported',
]);
/** One of {@link CodingAgent_RefusalReasonSchema}. */
export type CodingAgent_RefusalReason = z.infer<typeof CodingAgent_RefusalReasonSchema>;

const eventBase = {
  /** The run the event belongs to. */
  runId: z.string(),
  /** Position in the run, from 1. */
  seq: z.int().min(1),
  at: z.iso.datetime(),
};
const decided = {
  decision: CodingAgent_DecisionSchema,
  reason: CodingAgent_RefusalReasonSchema.optional(),
};

/**
 * One progress event of a coding-agent run. Streamed to `onCodingProgress` as the run goes (not through the chat
 * token channel) and, except the `message` and `thought` deltas, kept in the run record: every permission request
 * with its answer, every file and terminal call with its decision, each turn's end.
 */
export const CodingAgent_ProgressEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...eventBase,
    type: z.literal('session'),
    sessionId: z.string(),
    /** `new` for a fresh session; `load` or `resume` when a continuation reopened a stored one. */
    mode: z.enum(['new', 'load', 'resume']),
  }),
  z.object({ ...eventBase, type: z.literal('message'), text: z.string() }),
  z.object({ ...eventBase, type: z.literal('thought'), text: z.string() }),
  z.object({
    ...eventBase,
    type: z.literal('tool_call'),
    toolCallId: z.string(),
    title: z.string().optional(),
    kind: z.string().optional(),
    status: z.string().optional(),
    locations: z.array(z.string()),
  }),
  z.object({
    ...eventBase,
    type: z.literal('plan'),
    entries: z.array(z.object({ content: z.string(), status: z.string() })),
  }),
  z.object({
    ...eventBase,
    ...decided,
    type: z.literal('permission'),
    toolCallId: z.string(),
    /** The tool category the agent declared (`other` when it declared none). */
    kind: z.string(),
    title: z.string().optional(),
    locations: z.array(z.string()),
    /** The options the agent offered. */
    options: z.array(z.object({ optionId: z.string(), kind: z.string() })),
    /** The option selected in the agent's name, when one was. */
    optionId: z.string().optional(),
  }),
  z.object({
    ...eventBase,
    ...decided,
    type: z.literal('file'),
    access: z.enum(['read', 'write']),
    path: z.string(),
  }),
  z.object({
    ...eventBase,
    ...decided,
    type: z.literal('terminal'),
    command: z.string(),
    cwd: z.string().optional(),
  }),
  z.object({ ...eventBase, type: z.literal('awaiting_input'), question: z.string() }),
  z.object({ ...eventBase, type: z.literal('auto_continuation'), count: z.int().min(1), max: z.int().min(0) }),
  z.object({
    ...eventBase,
    type: z.literal('turn_end'),
    turn: z.int().min(1),
    stopReason: z.enum(CodingAgent_StopReason),
    /** The agent's text of this turn (the last characters, when it was long). */
    message: z.string(),
  }),
]);
/** One of {@link CodingAgent_ProgressEventSchema}. */
export type CodingAgent_ProgressEvent = z.infer<typeof CodingAgent_ProgressEventSchema>;
/** The `type` of a progress event. */
export type CodingAgent_ProgressEventType = CodingAgent_ProgressEvent['type'];
