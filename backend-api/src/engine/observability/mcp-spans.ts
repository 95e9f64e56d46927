import { context, propagation, SpanKind, SpanStatusCode, type Context } from '@opentelemetry/api';
import { activeTracer } from './telemetry.js';

/** What {@link traceMcpToolCall} records of one `tools/call`. */
export interface McpToolCallTrace {
  tool: string;
  /** The MCP protocol version the call speaks. */
  protocolVersion: string;
  requestId?: string | number | null;
  /** The request's `params._meta` (W3C `traceparent` and `tracestate` are read from it). */
  meta?: unknown;
}

/** The parent context: a client's `_meta.traceparent` when it sent one, else the current one (the HTTP span). */
function parentOf(meta: unknown): Context {
  const carrier = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  if (typeof carrier.traceparent !== 'string') return context.active();
  return propagation.extract(context.active(), {
    traceparent: carrier.traceparent,
    ...(typeof carrier.tracestate === 'string' ? { tracestate: carrier.tracestate } : {}),
  });
}

/**
 * Runs an MCP tool call inside a `tools/call {tool}` server span (MCP semantic conventions: `mcp.method.name`,
 * `mcp.protocol.version`, `gen_ai.tool.name`; `error.type` `tool_error` on an `isError` result), continuing the
 * client's trace from `_meta.traceparent`. With OTLP export off it only runs the call.
 */
export async function traceMcpToolCall<T>(trace: McpToolCallTrace, run: () => Promise<T>): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return run();
  return tracer.startActiveSpan(
    `tools/call ${trace.tool}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': trace.protocolVersion,
        'gen_ai.tool.name': trace.tool,
        'gen_ai.operation.name': 'execute_tool',
        ...(trace.requestId !== undefined && trace.requestId !== null
          ? { 'jsonrpc.request.id': String(trace.requestId) }
          : {}),
      },
    },
    parentOf(trace.meta),
    async (span) => {
      try {
        const result = await run();
        if ((result as { isError?: unknown } | null)?.isError === true) {
          span.setAttribute('error.type', 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool answered with an error result' });
        }
        return result;
      } catch (error) {
        span.setAttribute('error.type', (error as { code?: string }).code ?? (error as Error).name ?? 'error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
