import * as z from 'zod/mini';
import { requestJson } from '../api/api.client';
import type { TranscriptEntry } from './use-todo-assistant';

/** A conversation the person had with an assistant in one organization, as the page lists it. */
export interface ConversationSummary {
  executionId: string;
  /** The first message, shortened: how the person recognizes the conversation. */
  title: string;
  startedAt: string;
}

const SummarySchema = z.object({ executionId: z.string(), title: z.string(), startedAt: z.string() });
const MAX_REMEMBERED = 20;

const storageKey = (organizationId: string, systemRef: string) => `wildo:conversations:${organizationId}:${systemRef}`;

/**
 * The conversations this browser started in an organization, newest first. Only their ids and first lines are kept
 * here; what was said is read from the server when one is reopened (and only its owner may read it).
 */
export function rememberedConversations(organizationId: string, systemRef: string): ConversationSummary[] {
  try {
    const parsed = z
      .array(SummarySchema)
      .safeParse(JSON.parse(localStorage.getItem(storageKey(organizationId, systemRef)) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Adds a conversation to the list (once), newest first. */
export function rememberConversation(organizationId: string, systemRef: string, summary: ConversationSummary): void {
  const all = rememberedConversations(organizationId, systemRef);
  // Reopening a listed conversation keeps its place and its start.
  if (all.some((item) => item.executionId === summary.executionId)) return;
  const known = all;
  const title = summary.title.length > 80 ? `${summary.title.slice(0, 79)}…` : summary.title;
  try {
    localStorage.setItem(
      storageKey(organizationId, systemRef),
      JSON.stringify([{ ...summary, title }, ...known].slice(0, MAX_REMEMBERED)),
    );
  } catch {
    // Storage full or switched off: the conversation still works, it is just not listed after a reload.
  }
}

const ToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.optional(z.unknown()) });
const MessageSchema = z.union([
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.optional(z.array(ToolCallSchema)) }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    isError: z.optional(z.boolean()),
  }),
]);
const TranscriptSchema = z.object({
  data: z.object({ executionId: z.string(), status: z.string(), messages: z.array(MessageSchema) }),
});

function argumentsOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return argumentsOf(JSON.parse(value) as unknown);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * `GET /api/v1/flows-actors/executions/:id/messages`: a stored conversation as transcript lines (tool calls with
 * whether they ran or failed).
 */
export async function loadConversation(executionId: string, accessToken: string, signal?: AbortSignal) {
  const body = await requestJson(`/api/v1/flows-actors/executions/${encodeURIComponent(executionId)}/messages`, {
    accessToken,
    signal,
    schema: TranscriptSchema,
  });
  const results = new Map<string, { isError: boolean }>();
  for (const message of body.data.messages)
    if (message.role === 'tool') results.set(message.toolCallId, { isError: message.isError === true });
  const entries: TranscriptEntry[] = [];
  body.data.messages.forEach((message, index) => {
    if (message.role === 'user') entries.push({ kind: 'user', id: `stored-user-${index}`, text: message.content });
    if (message.role !== 'assistant') return;
    if (message.content) entries.push({ kind: 'assistant', id: `stored-assistant-${index}`, text: message.content });
    for (const call of message.toolCalls ?? []) {
      const result = results.get(call.id);
      entries.push({
        kind: 'tool',
        id: call.id,
        // The model's tool name (`resource_todos_update`) names the same operation as its function ref.
        functionRef: call.name.replace(/_/g, '.'),
        arguments: argumentsOf(call.arguments),
        ...(result
          ? {
              outcome: result.isError
                ? { ok: false as const, error: { code: 'FAILED', message: 'The action failed.' } }
                : { ok: true as const, result: null },
            }
          : {}),
      });
    }
  });
  return { executionId: body.data.executionId, status: body.data.status, entries };
}
