import { signUpThroughOutbox } from '@wildo/backend-api/testing';
import { stopBackendProcess } from '@wildo/backend-api/testing/backend-process';
import { failedPhase, formatLoadTable, runShape, type LoadOutcome, type LoadShape } from './replica-load.js';
import { startReplicaStack, type ReplicaStack } from './replica-stack.js';

/**
 * `pnpm e2e:replicas`: three replicas of the reference application on one PostgreSQL and one Redis of the lane's
 * own, behind a loopback round-robin balancer. Load (autocannon) at 1, 2 and 3 replicas, then faults while writes
 * run (a replica SIGKILLed, Redis stopped and restarted, PostgreSQL connections terminated), each followed by the
 * check that every acknowledged write is stored. `--short` is the version `npm test` runs: 10 s loads, one fault.
 */

const args = process.argv.slice(2);
const short = args.includes('--short');
const durationArg = args.indexOf('--duration');
const SECONDS = durationArg >= 0 ? Number(args[durationArg + 1]) : short ? 10 : 30;
const CONNECTIONS = 8;
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Session {
  token: string;
  organizationId: string;
  todoId: string;
  apiKey: string;
}

async function json(response: Response, step: string): Promise<{ data: Record<string, unknown> }> {
  const body = (await response.json().catch(() => undefined)) as { data: Record<string, unknown> } | undefined;
  if (!response.ok || !body) throw new Error(`${step} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function openSession(url: string): Promise<Session> {
  const { accessToken } = await signUpThroughOutbox(`${url}/api/v1`, {
    email: `replicas-${Date.now()}@example.com`,
    password: 'a long passphrase for the lane',
  });
  const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) =>
    fetch(`${url}/api/v1${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const organization = await json(await post('/organizations', { name: 'Replicas Inc' }), 'create organization');
  const organizationId = organization.data._id as string;
  const todo = await json(await post(`/organizations/${organizationId}/todos`, { title: 'seed' }), 'create todo');
  const key = await json(
    await post(`/organizations/${organizationId}/api-keys`, { name: 'lane', roles: ['ORG_MEMBER'] }),
    'create API key',
  );
  return { token: accessToken, organizationId, todoId: todo.data._id as string, apiKey: key.data.plainKey as string };
}

function shapes(url: string, session: Session): LoadShape[] {
  const todos = `${url}/api/v1/organizations/${session.organizationId}/todos`;
  const bearer = { authorization: `Bearer ${session.token}` };
  const mcpMeta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return [
    { name: 'REST read', url: `${todos}/${session.todoId}`, method: 'GET', headers: bearer, okStatus: 200 },
    {
      name: 'REST write',
      url: todos,
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'load' }),
      okStatus: 201,
    },
    {
      name: 'MCP tools/call',
      url: `${url}/api/v1/mcp`,
      method: 'POST',
      headers: {
        // The API key is the whole Authorization value, as the MCP tests send it.
        authorization: session.apiKey,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'todos__read',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'todos__read', arguments: { id: session.todoId }, _meta: mcpMeta },
      }),
      okStatus: 200,
    },
  ];
}

/** Writers with unique titles until `stop` resolves; every 201 is recorded as acknowledged. */
async function writeUntil(url: string, session: Session, label: string, stop: Promise<void>) {
  const acknowledged: string[] = [];
  const statuses: Record<string, number> = {};
  let stopped = false;
  void stop.then(() => (stopped = true));
  const writer = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const title = `${label}-${n}-${i}`;
      const status = await fetch(`${url}/api/v1/organizations/${session.organizationId}/todos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      }).then(
        (response) => response.status,
        () => 0,
      );
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 201) acknowledged.push(title);
    }
  };
  await Promise.all([0, 1, 2, 3].map(writer));
  return { acknowledged, statuses };
}

/** Every acknowledged title is stored, exactly once. */
async function missingWrites(stack: ReplicaStack, acknowledged: readonly string[], label: string): Promise<number> {
  const [table] = await stack.query<{ table_name: string }>(
    `SELECT table_name FROM wildo_resource_tables WHERE resource_type = 'todos'`,
  );
  const rows = await stack.query<{ title: string; n: string }>(
    `SELECT data->>'title' AS title, count(*) AS n FROM ${table?.table_name} WHERE data->>'title' LIKE $1 GROUP BY 1`,
    [`${label}-%`],
  );
  const stored = new Map(rows.map((row) => [row.title, Number(row.n)]));
  return acknowledged.filter((title) => stored.get(title) !== 1).length;
}

function writeOnce(stack: ReplicaStack, session: Session, title: string): Promise<Response> {
  return fetch(`${stack.url}/api/v1/organizations/${session.organizationId}/todos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function fault(
  stack: ReplicaStack,
  session: Session,
  label: string,
  inject: () => Promise<string>,
): Promise<string> {
  let finish!: () => void;
  const stop = new Promise<void>((resolve) => (finish = resolve));
  const writing = writeUntil(stack.url, session, label, stop);
  await pause(1_500);
  const what = await inject();
  await pause(2_000);
  finish();
  const { acknowledged, statuses } = await writing;
  // Recovery without restart: a write after the fault succeeds (after the shared rate limit's window, when the
  // writers used it up).
  let after = await writeOnce(stack, session, `${label}-after`);
  for (let tries = 0; after.status === 429 && tries < 15; tries++) {
    await pause(1_000);
    after = await writeOnce(stack, session, `${label}-after`);
  }
  const missing = await missingWrites(stack, acknowledged, label);
  const outcome = `${label}: ${what}; answers ${JSON.stringify(statuses)}; ${acknowledged.length} acknowledged, ${missing} missing; a write afterwards: ${after.status}`;
  if (missing > 0 || statuses['500'] || after.status !== 201) throw new Error(`fault failed: ${outcome}`);
  return outcome;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL must name a PostgreSQL server (the lane creates a database on it).');
  log('starting PostgreSQL database, Redis and three replicas…');
  const stack = await startReplicaStack(adminUrl, 3);
  try {
    const session = await openSession(stack.url);
    const outcomes: LoadOutcome[] = [];
    for (const count of [1, 2, 3]) {
      stack.balancer.setUpstreams(stack.replicas.slice(0, count).map((replica) => replica.url));
      for (const shape of shapes(stack.url, session)) {
        log(`${shape.name} on ${count} replica(s) for ${SECONDS} s…`);
        outcomes.push(await runShape(shape, count, CONNECTIONS, SECONDS));
      }
    }
    process.stdout.write(`\n${formatLoadTable(outcomes)}\n\n`);
    const failed = outcomes.filter(failedPhase);
    if (failed.length > 0)
      throw new Error(`load phases with errors: ${failed.map((o) => `${o.name}@${o.replicas}`).join(', ')}`);

    const faults: string[] = [];
    faults.push(
      await fault(stack, session, 'kill', async () => {
        const victim = stack.replicas.at(-1)!;
        await stopBackendProcess(victim.process, 'SIGKILL');
        // The balancer's health check would notice; the lane removes it at once.
        stack.balancer.remove(victim.url);
        return `${victim.name} SIGKILLed (balancer 502s: ${stack.balancer.failedUpstream})`;
      }),
    );
    if (!short) {
      faults.push(
        await fault(stack, session, 'pgterm', async () => {
          const rows = await stack.query<{ pid: number }>(
            `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'wildo%'`,
          );
          return `${rows.length} PostgreSQL connections terminated`;
        }),
      );
      faults.push(
        await fault(stack, session, 'redis', async () => {
          await stack.redis.stop();
          await pause(1_500);
          await stack.redis.start();
          return 'Redis stopped for 1.5 s and restarted';
        }),
      );
    }
    process.stdout.write(
      `faults (every acknowledged write present after each):\n${faults.map((f) => `  ${f}`).join('\n')}\n`,
    );
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`e2e:replicas failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
