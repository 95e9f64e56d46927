import autocannon from 'autocannon';

/** One kind of request the lane drives, identical every time. */
export interface LoadShape {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** The status a success answers with. */
  okStatus: number;
}

/** What a load phase saw. */
export interface LoadOutcome {
  name: string;
  replicas: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than `okStatus`, by status. */
  unexpected: Record<string, number>;
  errors: number;
  timeouts: number;
}

/** Drives `shape` with `connections` keep-alive connections for `seconds` (autocannon), bounded in time. */
export function runShape(
  shape: LoadShape,
  replicas: number,
  connections: number,
  seconds: number,
): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: shape.url,
        method: shape.method,
        headers: shape.headers,
        ...(shape.body !== undefined ? { body: shape.body } : {}),
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const unexpected: Record<string, number> = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats))
          if (Number(status) !== shape.okStatus) unexpected[status] = count;
        resolve({
          name: shape.name,
          replicas,
          requestsPerSecond: result.requests.total / result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          requests: result.requests.total,
          unexpected,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
  });
}

/** Whether a phase failed: a 5xx, a connection error or a timeout (a 429 is the shared rate limit at work). */
export function failedPhase(outcome: LoadOutcome): boolean {
  return (
    Object.keys(outcome.unexpected).some((status) => Number(status) >= 500) || outcome.errors + outcome.timeouts > 0
  );
}

/** The load table: one line per phase, with the throughput ratio against one replica. */
export function formatLoadTable(outcomes: readonly LoadOutcome[]): string {
  const lines = ['load            replicas   req/s    p50 ms   p99 ms   vs 1 replica   other answers, errors'];
  for (const outcome of outcomes) {
    const single = outcomes.find((o) => o.name === outcome.name && o.replicas === 1);
    const ratio = single ? outcome.requestsPerSecond / single.requestsPerSecond : 1;
    const other = Object.entries(outcome.unexpected).map(([status, count]) => `${status}x${count}`);
    lines.push(
      `${outcome.name.padEnd(16)}${String(outcome.replicas).padStart(8)}${Math.round(outcome.requestsPerSecond)
        .toString()
        .padStart(
          8,
        )}${outcome.p50Ms.toFixed(0).padStart(10)}${outcome.p99Ms.toFixed(0).padStart(9)}${`${ratio.toFixed(2)}x`.padStart(15)}   ${other.join(' ') || 'none'}, ${outcome.errors + outcome.timeouts}`,
    );
  }
  return lines.join('\n');
}
