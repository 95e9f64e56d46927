import { clientFields, toFrameworkError } from '../../errors/index.js';
import { withheldNote } from '../../governance/index.js';
import type { ProviderMessage, ProviderToolCall } from '../providers/index.js';
import type { ToolOutcome } from '../tools/index.js';

/** A tool result is cut to this many characters before the model reads it (the browser gets it whole). */
export const MAX_TOOL_RESULT_CHARS = 20_000;
/** The model sees at most this many earlier messages of a conversation. */
export const HISTORY_WINDOW = 200;

/** Calls of the last assistant message that have no result yet, in the model's order. */
export function outstandingCalls(history: readonly ProviderMessage[]): ProviderToolCall[] {
  let i = history.length - 1;
  const answered = new Set<string>();
  while (i >= 0 && history[i]?.role === 'tool') {
    answered.add((history[i] as { toolCallId: string }).toolCallId);
    i--;
  }
  const last = history[i];
  if (!last || last.role !== 'assistant' || !last.toolCalls) return [];
  return last.toolCalls.filter((call) => !answered.has(call.id));
}

/** The messages the model reads: a bounded tail that starts at a user message (never at an orphaned tool result). */
export function windowOf(history: readonly ProviderMessage[]): readonly ProviderMessage[] {
  if (history.length <= HISTORY_WINDOW) return history;
  const tail = history.slice(-HISTORY_WINDOW);
  const start = tail.findIndex((message) => message.role === 'user');
  return start <= 0 ? tail : tail.slice(start);
}

/** A call's result as the model reads it: JSON, cut to {@link MAX_TOOL_RESULT_CHARS}. */
export function toolMessage(call: ProviderToolCall, outcome: ToolOutcome): ProviderMessage {
  const payload = JSON.stringify(outcome.ok ? (outcome.result ?? null) : { error: outcome.error }) ?? 'null';
  const json =
    payload.length > MAX_TOOL_RESULT_CHARS ? `${payload.slice(0, MAX_TOOL_RESULT_CHARS)}… [truncated]` : payload;
  // The model is told what was withheld in the words an MCP client reads, so it does not take a gap for an empty value.
  const content = outcome.ok && outcome.withheld?.length ? `${json}\n\n${withheldNote(outcome.withheld)}` : json;
  return { role: 'tool', toolCallId: call.id, name: call.name, content, ...(outcome.ok ? {} : { isError: true }) };
}

/** The result of a call that was not run, saying why. */
export const notRun = (message: string): ToolOutcome => ({ ok: false, error: { code: 'NOT_RUN', message } });

/**
 * A refusal as the model and the browser read it: the framework's code, client-safe message, and what every surface
 * tells a client beside them (reason, input problems, declared failure, contract violation, a backend's status).
 */
export function refusalOf(error: unknown): ToolOutcome {
  const framework = toFrameworkError(error);
  if (framework.code === 'INTERNAL') return { ok: false, error: { code: 'TOOL_FAILED', message: 'The tool failed.' } };
  return { ok: false, error: { code: framework.code, message: framework.message, ...clientFields(framework) } };
}
