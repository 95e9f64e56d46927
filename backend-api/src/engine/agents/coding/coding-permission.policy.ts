import type { PermissionOption, RequestPermissionOutcome, StopReason } from '@agentclientprotocol/sdk';
import {
  AgentClientProtocol_PermissionCeiling as Ceiling,
  CodingAgent_StopReason,
  type CodingAgent_RefusalReason,
} from '@wildo/shared-lib';

// The permission ceiling as data: which ACP tool categories each ceiling admits, and which client methods it offers.

const READING = ['read', 'search', 'think'] as const;
const WRITING = [...READING, 'edit', 'delete', 'move'] as const;

/**
 * The tool categories (`ToolKind`) each ceiling admits; `null` admits every category. `execute`, `fetch`,
 * `switch_mode` and `other` are unrestricted only: a command or a mode switch can reach past the workspace.
 */
export const CEILING_TOOL_KINDS: Readonly<Record<Ceiling, ReadonlySet<string> | null>> = {
  [Ceiling.READ_ONLY]: new Set(READING),
  [Ceiling.WORKSPACE_WRITE]: new Set(WRITING),
  [Ceiling.UNRESTRICTED]: null,
};

/** Whether `ceiling` admits a tool of `kind` (a request that declares no kind counts as `other`). */
export function ceilingAdmits(ceiling: Ceiling, kind: string): boolean {
  const admitted = CEILING_TOOL_KINDS[ceiling];
  return admitted === null || admitted.has(kind);
}

/** The client methods a ceiling offers the agent: file reads always, writes from WORKSPACE_WRITE, terminals when unrestricted. */
export function clientMethodsOf(ceiling: Ceiling): { writeTextFile: boolean; terminal: boolean } {
  return { writeTextFile: ceiling !== Ceiling.READ_ONLY, terminal: ceiling === Ceiling.UNRESTRICTED };
}

/** Whether a ceiling is narrower than unrestricted (one an agent that escalates without callbacks could exceed). */
export function isRestrictiveCeiling(ceiling: Ceiling): boolean {
  return ceiling !== Ceiling.UNRESTRICTED;
}

/** How one permission request is answered, and why. */
export interface PermissionAnswer {
  outcome: RequestPermissionOutcome;
  decision: 'allowed' | 'refused' | 'cancelled';
  optionId?: string;
  reason?: CodingAgent_RefusalReason;
}

/**
 * The answer to a permission request once its category and locations are judged. An allowed request selects a
 * single-use option (`allow_once`), never a standing one: `allow_always` would let later calls skip the callbacks
 * that check them. A refused request selects `reject_once` (else `reject_always`); with no reject option offered,
 * the request is answered cancelled.
 */
export function answerPermission(
  options: readonly PermissionOption[],
  verdict: { allow: true } | { allow: false; reason: CodingAgent_RefusalReason },
): PermissionAnswer {
  if (verdict.allow) {
    const once = options.find((option) => option.kind === 'allow_once');
    if (once)
      return {
        outcome: { outcome: 'selected', optionId: once.optionId },
        decision: 'allowed',
        optionId: once.optionId,
      };
    return refuse(options, 'no_single_use_option');
  }
  return refuse(options, verdict.reason);
}

function refuse(options: readonly PermissionOption[], reason: CodingAgent_RefusalReason): PermissionAnswer {
  const reject = options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
  if (!reject) return { outcome: { outcome: 'cancelled' }, decision: 'refused', reason };
  return {
    outcome: { outcome: 'selected', optionId: reject.optionId },
    decision: 'refused',
    reason,
    optionId: reject.optionId,
  };
}

/** The answer to every permission request still open when its turn is cancelled (the protocol requires it). */
export const CANCELLED_PERMISSION: PermissionAnswer = {
  outcome: { outcome: 'cancelled' },
  decision: 'cancelled',
  reason: 'cancelled',
};

/** The protocol's stop reasons in the framework's vocabulary. */
export const ACP_STOP_REASONS: Readonly<Record<StopReason, CodingAgent_StopReason>> = {
  end_turn: CodingAgent_StopReason.END_TURN,
  max_tokens: CodingAgent_StopReason.MAX_TOKENS,
  max_turn_requests: CodingAgent_StopReason.MAX_TURN_REQUESTS,
  refusal: CodingAgent_StopReason.REFUSAL,
  cancelled: CodingAgent_StopReason.CANCELLED,
};
