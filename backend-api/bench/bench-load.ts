import autocannon from 'autocannon';

/** How hard and how long one measurement drives a server. */
export interface LoadSettings {
  connections: number;
  durationSeconds: number;
}

/** What the load generator saw during one run against one server. */
export interface LoadResult {
  /** Completed requests divided by the round's actual duration. */
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

/** One request, sent identically to both servers (the bare one ignores the token, which is the point). */
export interface LoadRequest {
  /** Which server, for messages: `framework` or `bare`. */
  label: string;
  url: string;
  headers: Record<string, string>;
  /** `GET` unless given (the MCP bench POSTs JSON-RPC). */
  method?: string;
  /** The request body, sent as is with every request. */
  body?: string;
}

/** A response that is not the 200 being measured: the numbers would describe an error path. */
export class BenchResponseError extends Error {
  override readonly name = 'BenchResponseError';
}

/** The value below which `fraction` of the sorted samples fall (nearest rank). */
function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}

/** Latencies in a growable typed array: no boxing, cheap enough not to slow the load generator. */
class LatencySamples {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.count).sort();
  }
}

function describeStatuses(stats: Record<string, { count: number }>): string {
  return Object.entries(stats)
    .map(([status, { count }]) => `${status}: ${count}`)
    .join(', ');
}

/**
 * Drives `request.url` for `settings.durationSeconds` with `settings.connections` keep-alive connections
 * (no pipelining) and returns throughput and latency. Throws {@link BenchResponseError} unless every
 * response was a 200.
 */
export function runLoad(request: LoadRequest, settings: LoadSettings): Promise<LoadResult> {
  // autocannon's own histogram keeps whole milliseconds, too coarse for a 1-3 ms read; keep the exact times.
  const latencies = new LatencySamples();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        headers: request.headers,
        ...(request.method ? { method: request.method } : {}),
        ...(request.body !== undefined ? { body: request.body } : {}),
        connections: settings.connections,
        pipelining: 1,
        duration: settings.durationSeconds,
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const answered = Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0);
        const ok = result.statusCodeStats['200']?.count ?? 0;
        if (ok === 0 || ok !== answered || result.errors > 0 || result.timeouts > 0) {
          return reject(
            new BenchResponseError(
              `${request.label} (${request.url}): ${answered - ok} of ${answered} responses were not 200 (${describeStatuses(result.statusCodeStats) || 'none'}), ` +
                `${result.errors} connection errors, ${result.timeouts} timeouts. A benchmark of errors is worthless: fix the server, then measure.`,
            ),
          );
        }
        const sorted = latencies.sorted();
        resolve({
          requestsPerSecond: result.requests.total / result.duration,
          requests: result.requests.total,
          p50Ms: percentile(sorted, 0.5),
          p99Ms: percentile(sorted, 0.99),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode === 200) latencies.add(responseTimeMs);
    });
  });
}

/**
 * One plain request before any load, checking that the server answers 200 with the seeded todo: a
 * misrouted or refused request must stop the run before it is measured.
 */
export async function assertAnswersTodo(request: LoadRequest, todoId: string): Promise<void> {
  const response = await fetch(request.url, { headers: request.headers });
  const text = await response.text();
  if (response.status !== 200)
    throw new BenchResponseError(`${request.label} (${request.url}) answered ${response.status}: ${text}`);
  const data = (JSON.parse(text) as { data?: { _id?: unknown; id?: unknown } }).data;
  // The framework projects the record (`_id`); the bare handler returns the row (`id`).
  if (data?._id !== todoId && data?.id !== todoId) {
    throw new BenchResponseError(`${request.label} (${request.url}) did not return todo ${todoId}: ${text}`);
  }
}
