import { randomUUID } from 'node:crypto';
import { CoreResourceOperation } from '@wildo/shared-lib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyTargets,
  buildHostileWorld,
  expectNotEchoed,
  expectUnstorableRefusal,
  holdsUnstorableText,
  hostileText,
  storableText,
  sendBody,
  toolTargets,
  unstorableExample,
  urlOf,
  utf8Query,
  type BodyTarget,
  type HostileWorld,
  type ToolTarget,
} from '../../testing/hostile-text.fixtures.js';
import { TEST_PASSWORD } from '../../testing/identity.fixtures.js';
import { handshake, MCP_BACKEND_OPTIONS, rpc, type ToolResult } from '../../testing/mcp.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { valueAtPath, withTextAt } from '../../testing/zod-text-targets.js';
import { CreateOrganizationRequestSchema, SignupRequestSchema } from '../identity/identity.schema.js';
import { GOVERNANCE_META } from '../mcp/mcp-protocol.js';
import { createPostgresTestSchema, postgresTestUrl } from '../persistence/postgres-test-schema.js';
import { createPostgresDatabase } from '../persistence/postgres-database.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import type { CompiledOperation } from '../resources/compiled-resource.types.js';
import { formatPath, STORABLE_TEXT_EXPECTATION } from '../resources/schema/index.js';

/**
 * The property, on every surface that accepts text: never a 5xx, never an MCP internal error; text the database
 * can store is stored and read back exactly; text it cannot (NUL, lone surrogates) is refused as input_invalid
 * naming where. Each target is sent one unstorable example (NUL, high, low, reversed pair in turn), then fast-check
 * draws `RUNS` more (target, text) pairs per surface from a fixed seed; where a surface stores, a second property
 * draws storable text only, for the targets that store. One backend per database serves the file.
 */
const SEED = 20_260_417;
const RUNS = { body: 60, bodyStored: 40, filter: 16, tool: 40, toolStored: 20, identity: 12 };

const database = useTestDatabase();
const postgresUrl = postgresTestUrl();

async function openBackend(db: SqlDatabase): Promise<TestBackend> {
  return createTestBackend(db, {
    ...MCP_BACKEND_OPTIONS,
    // Every probe comes from one address and one person: the throttles are not under test here. Sign-ups are
    // charged per address, so each probe names its own (trusted) forwarded address.
    http: { burst: { points: 1_000_000, durationMs: 10_000 }, trustProxy: true },
  });
}

/** fast-check options: the fixed seed, `numRuns` random pairs, and every target once with unstorable text. */
function options<T>(targets: readonly T[], numRuns: number) {
  return { seed: SEED, numRuns, examples: targets.map((target, i): [T, string] => [target, unstorableExample(i)]) };
}

/** The operation that reads one record of `operation`'s resource over REST. */
function readOperationOf(world: HostileWorld, operation: CompiledOperation): CompiledOperation {
  return world.registry.getOperationFromPath(
    world.registry.getServiceOperationPathDefault(operation.resourceType, CoreResourceOperation.READ),
  );
}

async function checkBody(t: TestBackend, world: HostileWorld, target: BodyTarget, text: string): Promise<void> {
  const body = withTextAt(target.base, target.path, text);
  const res = await sendBody(t, world, target.operation, body);
  expect(res.status, res.text).toBeLessThan(500);
  if (holdsUnstorableText(text)) return expectUnstorableRefusal(res, formatPath(target.path), text);
  const parsed = target.operation.inputSchema?.safeParse(body);
  if (!target.readBack || !parsed?.success) return;
  expect(res.status, res.text).toBeLessThan(300);
  const read = await t.api
    .get(urlOf(world, readOperationOf(world, target.operation), res.body.data._id as string))
    .set(world.admin.auth);
  expect(read.status, read.text).toBe(200);
  expect(valueAtPath(read.body.data, target.path)).toEqual(valueAtPath(parsed.data, target.path));
}

async function checkTool(t: TestBackend, world: HostileWorld, target: ToolTarget, text: string): Promise<void> {
  const args = withTextAt(target.base, target.path, text) as Record<string, unknown>;
  const res = await handshake(
    t.api,
    target.endpoint,
    rpc('tools/call', { name: target.tool, arguments: args }),
    world.apiKey,
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body.error, res.text).toBeUndefined();
  const result = res.body.result as ToolResult;
  expect((result._meta?.[GOVERNANCE_META.TOOL_ERROR] as { error?: string } | undefined)?.error, res.text).not.toBe(
    'internal_error',
  );
  if (holdsUnstorableText(text)) {
    expect(result.isError).toBe(true);
    expect(result._meta?.[GOVERNANCE_META.INPUT_INVALID]).toMatchObject({
      reason: 'input_invalid',
      problems: [{ path: formatPath(target.path), expected: STORABLE_TEXT_EXPECTATION }],
    });
    return expectNotEchoed(res.text, text);
  }
  const inBody = !(typeof target.path[0] === 'string' && target.path[0] in target.addressing);
  const body = Object.fromEntries(Object.entries(args).filter(([key]) => !(key in target.addressing)));
  const parsed = inBody ? target.operation.inputSchema?.safeParse(body) : undefined;
  if (!target.readBack || !parsed?.success) return;
  expect(result.isError, res.text).toBe(false);
  expect(valueAtPath(result.structuredContent, target.path)).toEqual(valueAtPath(parsed.data, target.path));
}

/** The properties against one database. */
function hostileTextProperties(openDatabase: () => Promise<SqlDatabase>) {
  let t: TestBackend;
  let world: HostileWorld;
  beforeAll(async () => {
    t = await openBackend(await openDatabase());
    world = await buildHostileWorld(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('REST bodies: every text field of every operation that takes one', async () => {
    const targets = await bodyTargets(t, world);
    expect(targets.length).toBeGreaterThan(20);
    expect(targets.some((target) => target.readBack)).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hostileText, (target, text) => checkBody(t, world, target, text)),
      options(targets, RUNS.body),
    );
    const storing = targets.filter((target) => target.readBack);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...storing), storableText, (target, text) => checkBody(t, world, target, text)),
      { seed: SEED, numRuns: RUNS.bodyStored },
    );
  });

  it('REST query strings: every filter of every list operation', async () => {
    const targets = world.registry
      .listOperations()
      .flatMap((operation) =>
        operation.http && operation.core === CoreResourceOperation.LIST
          ? [...operation.filters.values()].map((filter) => ({ operation, filter }))
          : [],
      );
    expect(targets.length).toBeGreaterThan(3);
    const property = fc.asyncProperty(fc.constantFrom(...targets), hostileText, async ({ operation, filter }, text) => {
      const res = await t.api.get(`${urlOf(world, operation)}?${utf8Query(filter.name, text)}`).set(world.admin.auth);
      expect(res.status, res.text).toBeLessThan(500);
      // A UTF-8 encoder turns a lone surrogate into U+FFFD: only NUL can reach the server through a URL.
      if (holdsUnstorableText(Buffer.from(text, 'utf8').toString('utf8')))
        return expectUnstorableRefusal(res, filter.name, text);
      if (res.status !== 200)
        expect(res.body.error.problems, res.text).toEqual([{ path: filter.name, expected: expect.any(String) }]);
    });
    await fc.assert(property, options(targets, RUNS.filter));
  });

  it('MCP tool calls: every text argument of every resource tool, on every endpoint', async () => {
    const targets: ToolTarget[] = [];
    for (const target of toolTargets(t, world)) {
      // A delete's control would remove the record every other tool addresses: it is probed with hostile text only.
      if (target.operation.core === CoreResourceOperation.DELETE) {
        targets.push({ ...target, readBack: false });
        continue;
      }
      const control = await handshake(
        t.api,
        target.endpoint,
        rpc('tools/call', { name: target.tool, arguments: target.base }),
        world.apiKey,
      );
      expect(control.body.error, control.text).toBeUndefined();
      const stores =
        target.operation.core === CoreResourceOperation.CREATE ||
        target.operation.core === CoreResourceOperation.UPDATE;
      targets.push({ ...target, readBack: stores && (control.body.result as ToolResult).isError === false });
    }
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.some((target) => target.readBack)).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hostileText, (target, text) => checkTool(t, world, target, text)),
      options(targets, RUNS.tool),
    );
    const storing = targets.filter((target) => target.readBack);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...storing), storableText, (target, text) => checkTool(t, world, target, text)),
      { seed: SEED, numRuns: RUNS.toolStored },
    );
  });

  it('identity: sign-up and sign-in (unauthenticated) and organization names', async () => {
    const targets = [
      'signup.email',
      'signup.password',
      'signup.displayName',
      'login.email',
      'login.password',
      'organizations.name',
    ] as const;
    const property = fc.asyncProperty(fc.constantFrom(...targets), hostileText, async (target, text) => {
      const [endpoint, field] = target.split('.') as [string, string];
      const forwarded = {
        'x-forwarded-for': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      };
      const base = {
        email: `hostile-${randomUUID()}@example.test`,
        password: TEST_PASSWORD,
        ...(endpoint === 'signup' ? { displayName: 'Someone' } : {}),
      };
      const res =
        endpoint === 'organizations'
          ? await t.api.post('/api/v1/organizations').set(world.admin.auth).send({ name: text })
          : await t.api
              .post(`/api/v1/auth/${endpoint}`)
              .set(forwarded)
              .send({ ...base, [field]: text });
      expect(res.status, res.text).toBeLessThan(500);
      if (holdsUnstorableText(text)) return expectUnstorableRefusal(res, field, text);
      if (target === 'organizations.name' && CreateOrganizationRequestSchema.safeParse({ name: text }).success) {
        expect(res.status, res.text).toBe(201);
        const read = await t.api.get(`/api/v1/organizations/${res.body.data._id as string}`).set(world.admin.auth);
        expect(read.body.data.name).toBe(CreateOrganizationRequestSchema.parse({ name: text }).name);
      }
      if (target === 'signup.displayName' && SignupRequestSchema.safeParse({ ...base, displayName: text }).success) {
        expect(res.status, res.text).toBe(201);
        const me = await t.api
          .get('/api/v1/auth/me')
          .set({ Authorization: `Bearer ${res.body.data.accessToken as string}` });
        expect(me.body.data.displayName).toBe(SignupRequestSchema.parse({ ...base, displayName: text }).displayName);
      }
    });
    await fc.assert(property, options(targets, RUNS.identity));
  });
}

describe('hostile text on PGlite', () => {
  hostileTextProperties(async () => database());
});

describe.skipIf(!postgresUrl)('hostile text on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  let db: SqlDatabase | undefined;
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });
  hostileTextProperties(async () => {
    const schema = await createPostgresTestSchema(postgresUrl as string);
    drop = () => schema.drop();
    db = await createPostgresDatabase({
      connectionString: schema.connectionString,
      searchPath: schema.schema,
      maxConnections: 4,
    });
    return db;
  });
});
