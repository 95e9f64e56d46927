import type { FrameworkError } from '../errors/index.js';
import { GOVERNANCE_META } from './mcp-protocol.js';
import type { McpToolResult } from './mcp-tools.types.js';

/** Renders a successful result: structured content, a text rendering, and where projection withheld data. */
export function successResult(structured: unknown, withheld: readonly string[]): McpToolResult {
  const object = structured !== null && typeof structured === 'object' && !Array.isArray(structured);
  const text = JSON.stringify(structured, null, 2) ?? 'null';
  const note =
    withheld.length > 0
      ? `\n\nSome data was withheld by the response contract at: ${[...new Set(withheld)].join(', ')}.`
      : '';
  return {
    content: [{ type: 'text', text: `${text}${note}` }],
    ...(object ? { structuredContent: structured as Record<string, unknown> } : {}),
    isError: false,
    ...(withheld.length > 0 ? { _meta: { [GOVERNANCE_META.PROJECTION]: { withheld: [...new Set(withheld)] } } } : {}),
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
    return refusal(`${tool} was refused: ${error.message}`, GOVERNANCE_META.POLICY_DENIED, {
      error: 'policy_denied',
      tool,
      reason,
    });
  }
  const kind = error.code === 'INTERNAL' ? 'internal_error' : error.code.toLowerCase();
  const message = error.code === 'INTERNAL' ? `${tool} failed on the server.` : `${tool} failed: ${error.message}`;
  return refusal(message, GOVERNANCE_META.TOOL_ERROR, { error: kind, tool });
}

function refusal(text: string, key: string, meta: Record<string, unknown>): McpToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: { [key]: meta } };
}
