import { CORE_APP_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { afterEach, describe, expect, it } from 'vitest';
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
const reports = defineResource({
  type: 'reports',
  displayName: 'Reports',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ n: z.number() }),
  customOperations: {
    count: {
      target: 'collection',
      requestSchema: z.strictObject({}),
      responseSchema: z.object({ n: z.number() }),
      effect: 'read',
    },
    forward: {
      target: 'collection',
      requestSchema: z.strictObject({}),
      responseSchema: z.object({ n: z.number() }),
      effect: 'read',
    },
  },
  operationsConfiguration: {
    count: { variants: [{ variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_APP_ROLES.APP_USER] }] },
    forward: { variants: [{ variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_APP_ROLES.APP_USER] }] },
  },
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
