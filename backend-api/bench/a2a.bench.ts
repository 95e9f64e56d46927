import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { SqlDatabase } from '../src/engine/persistence/index.js';
import { signUpThroughOutbox } from './bench-seed.js';
import { createTurnBenchBackend, formatMs, progress, providerWait, quantile, runTurnBench } from './turn-bench.js';

/**
 * `pnpm bench:a2a`: the runtime's own overhead per blocking A2A `message/send` (JSON-RPC, a task stored, the
 * reply as an artifact) beside the same turn over the REST/SSE path, with the stub model in its own process
 * (read a todo, read it again, answer: three model calls, two tool calls). Provider wait is measured inside the
 * adapter and subtracted. The two paths alternate turn by turn so they share the machine's state. A benchmark,
 * not a test: it prints medians, p95 and the ratio, and asserts nothing.
 */

const WARMUP_TURNS = Number(process.env.BENCH_WARMUP ?? 40);
const MEASURED_TURNS = Number(process.env.BENCH_TURNS ?? 200);
const TARGET_RATIO = 1.2;

interface Sides {
  label: string;
  rest: number[];
  a2a: number[];
}

async function benchDatabase(label: string, database: SqlDatabase, stubUrl: string): Promise<Sides> {
  const backend = await createTurnBenchBackend(database, stubUrl);
  const server = backend.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const post = async (route: string, body: unknown, authorization?: string) => {
      const res = await fetch(`${url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const email = `bench-${Date.now()}@example.test`;
    const bearer = `Bearer ${await signUpThroughOutbox(url, email, 'correct horse battery staple')}`;
    const orgId = JSON.parse((await post('/api/v1/organizations', { name: 'Bench' }, bearer)).text).data._id as string;
    const todoId = JSON.parse((await post(`/api/v1/organizations/${orgId}/todos`, { title: 'Benchmark' }, bearer)).text)
      .data._id as string;
    // Both paths run as the same principal: an organization API key (a machine member of the organization).
    const apiKey = JSON.parse(
      (await post(`/api/v1/organizations/${orgId}/api-keys`, { name: 'bench', roles: ['ORG_MEMBER'] }, bearer)).text,
    ).data.plainKey as string;
    const message = `What is the title of todo ${todoId}`;

    const rest = async () => {
      const res = await post(
        `/api/v1/organizations/${orgId}/flows-actors/systems/todo-assistant/turns`,
        { message },
        apiKey,
      );
      if (res.status !== 200 || !res.text.includes('"status":"completed"'))
        throw new Error(`REST turn: ${res.text.slice(0, 300)}`);
    };
    const a2a = async () => {
      const res = await post(
        '/api/v1/a2a/concierge',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              role: 'user',
              messageId: `m-${performance.now()}`,
              parts: [{ kind: 'text', text: message }],
            },
          },
        },
        apiKey,
      );
      if (!res.text.includes('"state":"completed"')) throw new Error(`A2A send: ${res.text.slice(0, 300)}`);
    };
    const overhead = async (turn: () => Promise<void>) => {
      providerWait.ms = 0;
      const start = performance.now();
      await turn();
      return performance.now() - start - providerWait.ms;
    };

    progress(`${label}: warming up (${WARMUP_TURNS} turns each)…`);
    for (let i = 0; i < WARMUP_TURNS; i++) {
      await rest();
      await a2a();
    }
    progress(`${label}: measuring ${MEASURED_TURNS} turns each, alternating…`);
    const sides: Sides = { label, rest: [], a2a: [] };
    for (let i = 0; i < MEASURED_TURNS; i++) {
      sides.rest.push(await overhead(rest));
      sides.a2a.push(await overhead(a2a));
    }
    return sides;
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await backend.close();
  }
}

function report(results: Sides[]): string {
  const lines = [
    `Runtime overhead per turn (3 streamed model calls, 2 tool calls), ${MEASURED_TURNS} turns per path, client time minus provider wait:`,
    '',
    `${'database'.padEnd(20)} ${'REST/SSE median/p95'.padStart(22)} ${'A2A message/send median/p95'.padStart(30)} ${'ratio (median)'.padStart(15)}`,
  ];
  for (const r of results) {
    const ratio = quantile(r.a2a, 0.5) / quantile(r.rest, 0.5);
    lines.push(
      `${r.label.padEnd(20)} ${`${formatMs(quantile(r.rest, 0.5))} / ${formatMs(quantile(r.rest, 0.95))}`.padStart(22)} ${`${formatMs(quantile(r.a2a, 0.5))} / ${formatMs(quantile(r.a2a, 0.95))}`.padStart(30)} ${`${ratio.toFixed(2)}x`.padStart(15)}`,
    );
  }
  lines.push('', `Target: A2A within ${TARGET_RATIO}x of the REST/SSE path.`);
  return lines.join('\n');
}

void runTurnBench('bench:a2a', benchDatabase, report);
