/** Bounds applied to prompt/completion content before it leaves the process (logs, analytics). */
export interface TraceContentLimits {
  /** Longer strings are cut and marked. */
  maxStringLength: number;
  /** Longer arrays keep their first items and a marker. */
  maxArrayItems: number;
  /** Deeper values are replaced by a marker. */
  maxDepth: number;
  /** Arrays of more numbers than this are treated as vectors and summarized, never copied. */
  maxNumericArrayLength: number;
}

/** Defaults: generous for text, strict for binary-looking payloads. */
export const DEFAULT_TRACE_CONTENT_LIMITS: TraceContentLimits = {
  maxStringLength: 16_384,
  maxArrayItems: 200,
  maxDepth: 8,
  maxNumericArrayLength: 64,
};

/** Keys whose values are base64 payloads (generated images, files): summarized, never copied. */
const BINARY_KEYS = new Set(['base64', 'b64_json', 'b64', 'data_base64', 'imageBase64']);
const DATA_URL = /^data:[^;,]{1,100};base64,/i;

/**
 * A copy of trace content safe to hand to a log line or an analytics event: base64 payloads, data URLs and
 * numeric vectors (embeddings) are summarized, long strings and arrays are cut, cycles and depth are bounded,
 * values JSON cannot carry are dropped. The input is never modified.
 *
 * @example
 * boundedTraceContent({ images: [{ base64: 'iVBOR...', mediaType: 'image/png' }] });
 * // { images: [{ base64: '[base64 omitted: 1234 chars]', mediaType: 'image/png' }] }
 */
export function boundedTraceContent(
  value: unknown,
  limits: TraceContentLimits = DEFAULT_TRACE_CONTENT_LIMITS,
): unknown {
  return bound(value, limits, 0, new WeakSet());
}

function bound(value: unknown, limits: TraceContentLimits, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return boundString(value, limits);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return undefined; // functions, symbols, undefined
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary omitted: ${value.byteLength} bytes]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= limits.maxDepth) return '[depth limit]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      if (value.length > limits.maxNumericArrayLength && value.every((item) => typeof item === 'number')) {
        return `[vector omitted: ${value.length} numbers]`;
      }
      const items = value.slice(0, limits.maxArrayItems).map((item) => bound(item, limits, depth + 1, seen) ?? null);
      if (value.length > limits.maxArrayItems)
        items.push(`[${value.length - limits.maxArrayItems} more items omitted]`);
      return items;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (BINARY_KEYS.has(key) && typeof item === 'string') {
        out[key] = `[base64 omitted: ${item.length} chars]`;
        continue;
      }
      const bounded = bound(item, limits, depth + 1, seen);
      if (bounded !== undefined) out[key] = bounded;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function boundString(value: string, limits: TraceContentLimits): string {
  if (DATA_URL.test(value)) return `[data URL omitted: ${value.length} chars]`;
  if (value.length <= limits.maxStringLength) return value;
  return `${value.slice(0, limits.maxStringLength)}…[${value.length - limits.maxStringLength} chars truncated]`;
}
