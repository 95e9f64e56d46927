import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import express from 'express';
import type { WildoBackend } from '../src/engine/bootstrap/wildo-backend.js';
import type { SqlDatabase } from '../src/engine/persistence/index.js';
import { parseSse } from '../src/testing/agents.fixtures.js';
import { signUpThroughOutbox } from './bench-seed.js';
import { createTurnBenchBackend, formatMs, progress, providerWait, quantile, runTurnBench } from './turn-bench.js';

/**
 * `pnpm bench:agents`: the agents runtime's own overhead per streaming turn with two tool calls. Each turn
 * is a real HTTP request to the reference todo assistant: admission, budget check, conversation persistence,
 * three streamed model calls to a local Anthropic stub (read a todo, read it again, answer), two tool calls
 * dispatched through the shared path, SSE to the client. The time spent waiting on the provider (SDK, HTTP,
 * stub) is measured inside the adapter's stream and subtracted from the client-side total. A benchmark, not
 * a test: it prints medians and p95 measured in one run and asserts no time.
 */

const WARMUP_TURNS = Number(process.env.BENCH_WARMUP ?? 40);
const MEASURED_TURNS = Number(process.env.BENCH_TURNS ?? 300);
const TARGET_MEDIAN_MS = 5;

interface Measured {
  label: string;
  /** Until `turn_completed` reached the client (what the person waits for). */
  completed: number[];
  /** Until the response ended (the turn's last writes included). */
  total: number[];
  provider: number[];
  /** Server time until turn_completed is written, minus provider wait: the runtime's own time. */
  overhead: number[];
  /** The same seen from the client (HTTP client and kernel included). */
  overheadClient: number[];
}

async function benchDatabase(label: string, database: SqlDatabase, stubUrl: string): Promise<Measured> {
  if (process.env.BENCH_PROFILE_SQL) {
    const stats = new Map<string, { n: number; ms: number }>();
    const wrap = (db: SqlDatabase) => {
      const q = db.query.bind(db);
      (db as { query: SqlDatabase['query'] }).query = (async (sql: string, params?: unknown[]) => {
        const t0 = performance.now();
        try {
          return await q(sql, params as never);
        } finally {
          const key = sql.replace(/\s+/g, ' ').slice(0, 90);
          const e = stats.get(key) ?? { n: 0, ms: 0 };
          e.n++;
          e.ms += performance.now() - t0;
          stats.set(key, e);
        }
      }) as SqlDatabase['query'];
      if (!db.transaction) return;
      const tx = db.transaction.bind(db);
      (db as { transaction: SqlDatabase['transaction'] }).transaction = ((fn: (t: SqlDatabase) => Promise<unknown>) =>
        tx((t) => {
          wrap(t as SqlDatabase);
          return fn(t as SqlDatabase);
        })) as SqlDatabase['transaction'];
    };
    wrap(database);
    process.on('exit', () => {
      for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30))
        process.stderr.write(`${String(v.n).padStart(6)} ${v.ms.toFixed(0).padStart(7)}ms ${k}\n`);
    });
  }
  const backend: WildoBackend = await createTurnBenchBackend(database, stubUrl);
  // The runtime's time is taken on the server: from the request reaching the app to turn_completed being written.
  let serverStart = 0;
  let serverCompleted = 0;
  const outer = express();
  outer.use((_req, res, next) => {
    serverStart = performance.now();
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (serverCompleted === 0 && String(chunk).includes('event: turn_completed'))
        serverCompleted = performance.now() - serverStart;
      return write(chunk, ...rest);
    }) as typeof res.write;
    next();
  });
  outer.use(backend.app);
  const server = outer.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const token = await signUpThroughOutbox(url, `bench-${Date.now()}@example.test`, 'correct horse battery staple');
    const orgId = JSON.parse((await post('/api/v1/organizations', { name: 'Bench' }, token)).text).data._id as string;
    const todoId = JSON.parse(
      (await post(`/api/v1/organizations/${orgId}/todos`, { title: 'Benchmark the runtime' }, token)).text,
    ).data._id as string;
    const path = `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`;

    const turn = async () => {
      providerWait.ms = 0;
      serverCompleted = 0;
      const start = performance.now();

      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ message: `What is the title of todo ${todoId}` }),
      });
      // Read the stream as it comes, noting when turn_completed arrives.
      let text = '';
      let completed = 0;
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        if (!completed && text.includes('event: turn_completed')) completed = performance.now() - start;
      }
      const total = performance.now() - start;

      const events = parseSse(text);
      const results = events.filter((e) => e.event === 'tool_result' && e.data.outcome.ok === true).length;
      if (res.status !== 200 || results !== 2 || events.at(-1)?.data.status !== 'completed') {
        throw new Error(`unexpected turn (HTTP ${res.status}): ${text.slice(0, 500)}`);
      }
      return { completed, total, server: serverCompleted, provider: providerWait.ms };
    };

    progress(`${label}: warming up (${WARMUP_TURNS} turns)…`);
    for (let i = 0; i < WARMUP_TURNS; i++) await turn();
    progress(`${label}: measuring ${MEASURED_TURNS} turns…`);
    const measured: Measured = { label, completed: [], total: [], provider: [], overhead: [], overheadClient: [] };
    for (let i = 0; i < MEASURED_TURNS; i++) {
      const { completed, total, server, provider } = await turn();
      measured.completed.push(completed);
      measured.provider.push(provider);
      measured.overhead.push(server - provider);
      measured.overheadClient.push(completed - provider);
      measured.total.push(total);
    }
    return measured;
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await backend.close();
  }
}

function report(results: Measured[]): string {
  const lines = [
    `Agents runtime overhead per streaming turn: ${MEASURED_TURNS} turns of 3 streamed model calls and 2 tool calls over SSE,`,
    'server time until turn_completed minus the time spent waiting on the provider (SDK + HTTP + stub in its own process).',
    '',
    `${'database'.padEnd(20)} ${'overhead median'.padStart(16)} ${'overhead p95'.padStart(13)} ${'seen by client (median/p95)'.padStart(28)} ${'turn median'.padStart(12)} ${'provider median'.padStart(16)}`,
  ];
  for (const r of results) {
    const { overhead, overheadClient: client } = r;
    lines.push(
      `${r.label.padEnd(20)} ${formatMs(quantile(overhead, 0.5)).padStart(16)} ${formatMs(quantile(overhead, 0.95)).padStart(13)} ${`${formatMs(quantile(client, 0.5))} / ${formatMs(quantile(client, 0.95))}`.padStart(28)} ${formatMs(quantile(r.completed, 0.5)).padStart(12)} ${formatMs(quantile(r.provider, 0.5)).padStart(16)}`,
    );
  }
  lines.push(
    '',
    `Target: overhead median under ${TARGET_MEDIAN_MS} ms. The turn's last writes finish after turn_completed, before the response ends.`,
  );
  return lines.join('\n');
}

void runTurnBench('bench:agents', benchDatabase, report);
