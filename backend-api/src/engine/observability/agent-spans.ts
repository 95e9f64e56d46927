import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { activeTracer } from './telemetry.js';

/** The turn events the spans read (structurally: the agents room's `TurnEvent`). */
type ObservedEvent =
  | { type: 'execution'; executionId: string; agentRef: string }
  | { type: 'text_delta' }
  | { type: 'tool_call'; toolCallId: string; functionRef: string }
  | { type: 'tool_result'; toolCallId: string; functionRef: string; outcome: { ok: boolean } }
  | { type: 'approval_required'; approval: { toolCallId?: string } }
  | { type: 'approval_decided'; toolCallId: string; functionRef?: string; decision: string }
  | { type: 'turn_completed'; status: string; usage: { inputTokens: number; outputTokens: number } }
  | { type: string };

/**
 * Runs a turn's event stream inside an `invoke_agent {system}` span (GenAI conventions): model calls made while it
 * runs become its `chat` children, each tool call an `execute_tool {tool}` child from its call to its result (an
 * approval wait shows as an `approval_required` event on it), and the time to the first streamed chunk, the tokens
 * and the way the turn ended are recorded on it. With OTLP export off the stream passes through untouched.
 */
export async function* traceAgentTurn<E extends { type: string }>(
  system: string,
  events: AsyncGenerator<E, void>,
): AsyncGenerator<E, void> {
  const tracer = activeTracer();
  if (!tracer) return yield* events;
  const started = Date.now();
  const span = tracer.startSpan(`invoke_agent ${system}`, {
    kind: SpanKind.INTERNAL,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': system },
  });
  const turnContext = trace.setSpan(context.active(), span);
  const tools = new Map<string, Span>();
  let firstChunk = true;
  try {
    for (;;) {
      // Each step of the turn runs in the span's context, so the model calls it makes nest under it.
      const step = await context.with(turnContext, () => events.next());
      if (step.done) return;
      const event = step.value as ObservedEvent;
      if (event.type === 'execution' && 'executionId' in event) {
        span.setAttribute('gen_ai.conversation.id', event.executionId);
        span.setAttribute('gen_ai.agent.id', event.agentRef);
      } else if (event.type === 'text_delta' && firstChunk) {
        firstChunk = false;
        span.setAttribute('wildo.time_to_first_chunk_ms', Date.now() - started);
      } else if (event.type === 'tool_call' && 'toolCallId' in event && 'functionRef' in event) {
        tools.set(
          event.toolCallId,
          tracer.startSpan(
            `execute_tool ${event.functionRef}`,
            {
              kind: SpanKind.INTERNAL,
              attributes: {
                'gen_ai.operation.name': 'execute_tool',
                'gen_ai.tool.name': event.functionRef,
                'gen_ai.tool.call.id': event.toolCallId,
              },
            },
            turnContext,
          ),
        );
      } else if (event.type === 'approval_required' && 'approval' in event) {
        const waiting = event.approval.toolCallId ? tools.get(event.approval.toolCallId) : undefined;
        waiting?.addEvent('approval_required');
        waiting?.setAttribute('wildo.approval', 'pending');
      } else if (event.type === 'tool_result' && 'outcome' in event) {
        const tool = tools.get(event.toolCallId);
        if (tool && !event.outcome.ok) {
          tool.setAttribute('error.type', 'tool_error');
          tool.setStatus({ code: SpanStatusCode.ERROR });
        }
        tool?.end();
        tools.delete(event.toolCallId);
      } else if (event.type === 'turn_completed' && 'usage' in event) {
        span.setAttribute('gen_ai.usage.input_tokens', event.usage.inputTokens);
        span.setAttribute('gen_ai.usage.output_tokens', event.usage.outputTokens);
        span.setAttribute('wildo.turn.status', event.status);
      }
      yield step.value;
    }
  } catch (error) {
    span.setAttribute('error.type', (error as { code?: string }).code ?? (error as Error).name ?? 'error');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    for (const open of tools.values()) open.end();
    span.end();
    await events.return(undefined);
  }
}
