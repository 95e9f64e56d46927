import { CORE_APP_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import { FrameworkError } from '../errors/index.js';
import { createSilentLogger } from '../logging/index.js';
import { compileApplicationResources, type ExecutionContext } from '../resources/index.js';
import { bindResource } from './bind-resource.js';
import { compileBindingsOrThrow } from './connector-bindings.js';
import { ConnectorRuntime } from './connector-runtime.js';
import { restConnector, sqlConnector } from './connectors.js';

// What the runtime refuses before any backend is asked: an unset variable, a missing delegated token, an empty
// identity claim. None of these cases opens a connection (the addresses below answer nothing).
/** A read answering `{ n }`, taking `input`. */
const countFrom = <T extends z.ZodObject>(input: T) => ({
  target: 'collection' as const,
  requestSchema: input,
  responseSchema: z.object({ n: z.number() }),
  effect: 'read' as const,
});
const anyUser = {
  variants: [{ variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_APP_ROLES.APP_USER] }],
};
const reports = defineResource({
  type: 'reports',
  displayName: 'Reports',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ n: z.number() }),
  customOperations: {
    count: countFrom(z.strictObject({})),
    forward: countFrom(z.strictObject({})),
    fetch: countFrom(z.strictObject({ what: z.string() })),
    wait: countFrom(z.strictObject({})),
  },
  operationsConfiguration: { count: anyUser, forward: anyUser, fetch: anyUser, wait: anyUser },
});

const binding = bindResource(reports, {
  count: {
    connector: sqlConnector({ name: 'warehouse', dsn: '${WAREHOUSE_DSN}' }),
    sql: 'SELECT count(*) AS n FROM facts',
    identity: { 'app.user_id': 'userId' },
    response: { map: { n: '$[0].n' } },
  },
  forward: {
    connector: restConnector({ name: 'api', baseUrl: '${API_URL}' }),
    method: 'GET',
    path: '/count',
    headers: { authorization: 'Bearer ${caller.accessToken}' },
    response: { map: { n: '$.n' } },
  },
  fetch: {
    connector: restConnector({ name: 'api', baseUrl: '${API_URL}' }),
    method: 'GET',
    path: '/{what}',
    response: { map: { n: '$.n' } },
  },
  // Its own short bound: the backend never answers it, whatever the machine's load.
  wait: {
    connector: restConnector({ name: 'api', baseUrl: '${API_URL}' }),
    method: 'GET',
    path: '/hang',
    timeoutMs: 300,
    response: { map: { n: '$.n' } },
  },
});

const application = {
  name: 'app',
  modules: [{ name: 'reports', resources: [reports], customServiceImplementations: [binding] }],
};

/** A machine's context: no user, so no `userId` claim. */
const machine: ExecutionContext = {
  executionType: ExecutionContext_ExecutionType.APPLICATION_MACHINE,
  initiatorIds: { clientId: 'client-1' },
  initiatorRoles: [CORE_APP_ROLES.APP_USER],
  tenant: { kind: 'application' },
  surface: 'rest',
  requestId: 'r-1',
  callTimestamp: '2027-05-01T00:00:00.000Z',
};

/** A person's context (a user id, no delegated token). */
const person: ExecutionContext = {
  ...machine,
  executionType: ExecutionContext_ExecutionType.USER,
  initiatorIds: { userId: 'user-1' },
};

let runtime: ConnectorRuntime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

async function start(env: Record<string, string>): Promise<ConnectorRuntime> {
  const compiled = compileApplicationResources(application);
  runtime = await ConnectorRuntime.start({
    bindings: compileBindingsOrThrow(application, compiled.resources),
    env,
    logger: createSilentLogger(),
    production: false,
  });
  return runtime;
}

async function refusal(run: Promise<unknown>): Promise<FrameworkError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FrameworkError);
  return error as FrameworkError;
}

describe('the connector runtime refuses before any backend is asked', () => {
  it('answers 503 for an operation whose environment variable is unset', async () => {
    const connectors = await start({});
    expect(await refusal(connectors.invoke('reports', 'count', {}, person))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await refusal(connectors.invoke('reports', 'forward', {}, person))).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('refuses an empty identity claim (a machine has no user) before connecting', async () => {
    // Port 9 (discard) on loopback: nothing connects; the refusal comes first.
    const connectors = await start({ WAREHOUSE_DSN: 'postgres://nobody@127.0.0.1:9/none' });
    expect(await refusal(connectors.invoke('reports', 'count', {}, machine))).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'principal_not_allowed',
    });
  });

  it("refuses a caller without a delegated token when the binding forwards the caller's token", async () => {
    const connectors = await start({ API_URL: 'http://127.0.0.1:9' });
    expect(await refusal(connectors.invoke('reports', 'forward', {}, machine))).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'principal_not_allowed',
    });
  });
});

describe('the connector runtime answers a failing backend with a kind of failure, never its words', () => {
  // A backend that never answers /hang, redirects /moved, answers /text with no JSON and /ok with a count.
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hang') return;
      if (req.url === '/moved') return res.writeHead(302, { location: 'http://10.0.0.1/internal' }).end();
      if (req.url === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('db-7 is down');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n: 3, internal: 'x' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers the mapped result (the positive control)', async () => {
    const connectors = await start({ API_URL: url });
    expect(await connectors.invoke('reports', 'fetch', { what: 'ok' }, person)).toEqual({ n: 3 });
  });

  it.each([
    ['wait', {}, /did not answer in time/],
    ['fetch', { what: 'moved' }, /could not be reached/],
    ['fetch', { what: 'text' }, /not JSON/],
  ])('refuses %s %j with a 503 that names no host and no backend text', async (operation, input, message) => {
    const connectors = await start({ API_URL: url });
    const error = await refusal(connectors.invoke('reports', operation, input, person));
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/127\.0\.0\.1|10\.0\.0\.1|db-7/);
  });
});
