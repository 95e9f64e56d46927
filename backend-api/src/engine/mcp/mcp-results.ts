import type { FrameworkError } from '../errors/index.js';
import { withheldNote, type WithheldValue } from '../governance/index.js';
import { GOVERNANCE_META } from './mcp-protocol.js';
import type { McpToolResult } from './mcp-tools.types.js';

/**
 * Renders a successful result: structured content and its text rendering; when projection withheld values, a
 * second text block says where and why, and `_meta["dev.wildo/projection"].withheld` lists them (`{ path, reason }`).
 */
export function successResult(structured: unknown, withheld: readonly WithheldValue[]): McpToolResult {
  const object = structured !== null && typeof structured === 'object' && !Array.isArray(structured);
  const text = JSON.stringify(structured, null, 2) ?? 'null';
  if (withheld.length === 0) {
    return {
      content: [{ type: 'text', text }],
      ...(object ? { structuredContent: structured as Record<string, unknown> } : {}),
      isError: false,
    };
  }
  return {
    content: [
      { type: 'text', text },
      { type: 'text', text: withheldNote(withheld) },
    ],
    ...(object ? { structuredContent: structured as Record<string, unknown> } : {}),
    isError: false,
    _meta: { [GOVERNANCE_META.PROJECTION]: { withheld } },
  };
}

/** The refusal reasons that are policy decisions (who may call, how often, under which conditions). */
const POLICY_REASONS = new Set([
  'no_credential',
  'principal_denied',
  'principal_not_allowed',
  'identity_not_evaluable',
  'role_refused',
  'rate_limit_exceeded',
  'approval_required',
  'approval_pending',
  'approval_denied',
  'approval_invalid',
  'approval_not_evaluable',
  'step_up_required',
]);

/**
 * Renders a refusal or failure as an `isError` result: a human sentence in the text, and a machine reason under
 * one `_meta` namespace (`dev.wildo/...`). It never repeats a submitted value and never describes the policy.
 */
export function errorResult(tool: string, error: FrameworkError): McpToolResult {
  const reason = error.reason;
  if (reason === 'input_invalid') {
    return refusal(`The arguments of ${tool} do not satisfy its input schema.`, GOVERNANCE_META.INPUT_INVALID, {
      error: 'input_invalid',
      tool,
      reason,
      problems: error.problems ?? [],
    });
  }
  if (reason === 'lifecycle_blocked') {
    return refusal(`${tool} is no longer available.`, GOVERNANCE_META.LIFECYCLE_BLOCKED, {
      error: 'lifecycle_blocked',
      tool,
      reason,
      lifecycle: 'retired',
    });
  }
  if (reason && POLICY_REASONS.has(reason)) {
    const where = error.approval ? ` Approve it at ${error.approval.decideAt}` : '';
    return refusal(`${tool} was refused: ${error.message}${where}`, GOVERNANCE_META.POLICY_DENIED, {
      error: 'policy_denied',
      tool,
      reason,
      ...(error.approval ? { approval: error.approval } : {}),
    });
  }
  if (error.violation) {
    return refusal(
      `${tool} returned a result that does not match its declared output contract; the result was withheld.`,
      GOVERNANCE_META.CONTRACT_VIOLATION,
      { error: 'contract_violation', tool, missing: error.violation.missing, invalid: error.violation.invalid },
    );
  }
  if (error.failure) {
    return refusal(`${tool} failed: ${error.failure.description}`, GOVERNANCE_META.OPERATION_FAILED, {
      error: 'operation_failed',
      tool,
      failure: error.failure.code,
      description: error.failure.description,
    });
  }
  const kind = error.code === 'INTERNAL' ? 'internal_error' : error.code.toLowerCase();
  const message = error.code === 'INTERNAL' ? `${tool} failed on the server.` : `${tool} failed: ${error.message}`;
  const status = error.upstreamStatus !== undefined ? { upstreamStatus: error.upstreamStatus } : {};
  return refusal(message, GOVERNANCE_META.TOOL_ERROR, { error: kind, tool, ...status });
}

function refusal(text: string, key: string, meta: Record<string, unknown>): McpToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [key]: meta } };
}
