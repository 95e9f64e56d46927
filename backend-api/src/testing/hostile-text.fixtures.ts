import { CoreResourceOperation } from '@wildo/shared-lib';
import fc from 'fast-check';
import type supertest from 'supertest';
import { expect } from 'vitest';
import { SAAS_SERVICE_TYPES } from '../engine/container/saas-service-types.tokens.js';
import { CONNECTORS_TYPES, type ConnectorRuntime } from '../engine/connectors/index.js';
import type { McpToolCatalogue } from '../engine/mcp/tool-catalogue.service.js';
import type { CompiledOperation } from '../engine/resources/compiled-resource.types.js';
import type { ResourcesRegistry } from '../engine/resources/resources-registry.service.js';
import { STORABLE_TEXT_EXPECTATION } from '../engine/resources/schema/index.js';
import { signUpAppAdmin, type TestUser } from './identity.fixtures.js';
import { organizationApiKey } from './mcp.fixtures.js';
import type { TestBackend } from './test-backend.js';
import { minimalValueFor, textPathsOf, type TextPath } from './zod-text-targets.js';

/** Text the database cannot store, alone or inside other text: NUL, lone high and low surrogates, a reversed pair. */
export const UNSTORABLE_PIECES = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'] as const;

/** Storable text that is easy to get wrong: combining marks, bidi controls, ZWJ emoji, astral letters, long runs. */
const UNICODE_PIECES = [
  'e\u0301\u0302\u0303',
  '\u200f\u202e\u2066abc\u2069',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '\ufeff',
  '𝔸'.repeat(60),
  'ab'.repeat(3_000),
];

/**
 * Arbitrary text: any code points (`fc.string` with the full Unicode unit, NUL included), mixed with the pieces
 * above. About half the values hold something unstorable.
 */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: fc.string({ unit: 'binary', maxLength: 16 }), weight: 3 },
      { arbitrary: fc.constantFrom(...UNSTORABLE_PIECES), weight: 1 },
      { arbitrary: fc.constantFrom(...UNICODE_PIECES), weight: 1 },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(''));

/** Arbitrary text the database can store: any code points but NUL, mixed with the pieces above. */
export const storableText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        arbitrary: fc
          .string({ unit: 'binary', minLength: 1, maxLength: 16 })
          .map((text) => text.replaceAll('\u0000', '')),
        weight: 3,
      },
      { arbitrary: fc.constantFrom(...UNICODE_PIECES), weight: 1 },
    ),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((parts) => parts.join(''));

/**
 * The tests' own oracle of unstorable text, independent of the implementation's native scans: a NUL, a high
 * surrogate not followed by a low one, or a low surrogate not preceded by a high one.
 */
export function holdsUnstorableText(text: string): boolean {
  // oxlint-disable-next-line no-control-regex -- NUL is one of the unstorable texts this oracle looks for.
  return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** One unstorable text per index, so every target is sent each kind once across the examples. */
export function unstorableExample(index: number): string {
  return `before ${UNSTORABLE_PIECES[index % UNSTORABLE_PIECES.length] as string} after`;
}

/** What the refusal of unstorable text at `path` must be: 400 input_invalid naming the path, the text not repeated. */
export function expectUnstorableRefusal(res: supertest.Response, path: string, text: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toMatchObject({
    code: 'VALIDATION_FAILED',
    reason: 'input_invalid',
    problems: [{ path, expected: STORABLE_TEXT_EXPECTATION }],
  });
  expectNotEchoed(res.text, text);
}

/** The response does not repeat a submitted text (checked when it is long enough to be told from other words). */
export function expectNotEchoed(responseText: string, text: string): void {
  const escaped = JSON.stringify(text).slice(1, -1);
  if (escaped.length >= 8)
    expect(responseText.includes(escaped), 'the response repeats the submitted text').toBe(false);
}

/** A query string with one parameter, percent-encoded from UTF-8 as a browser would (lone surrogates become U+FFFD). */
export function utf8Query(name: string, value: string): string {
  const encode = (text: string) =>
    [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return `${encode(name)}=${encode(value)}`;
}

/** The data every probe needs: an application admin owning an organization, an ORG_ADMIN key, one record per resource. */
export interface HostileWorld {
  admin: TestUser;
  organizationId: string;
  apiKey: string;
  recordIds: Map<string, string>;
  registry: ResourcesRegistry;
}

/** Signs an application admin up, creates the organization, its key, and one record of every resource that has a REST create. */
export async function buildHostileWorld(t: TestBackend): Promise<HostileWorld> {
  const admin = await signUpAppAdmin(t, 'hostile-admin');
  const org = await t.api.post('/api/v1/organizations').set(admin.auth).send({ name: 'Hostile text' });
  expect(org.status, org.text).toBe(201);
  const organizationId = org.body.data._id as string;
  const apiKey = await organizationApiKey(t.api, admin, organizationId, ['ORG_ADMIN']);
  const registry = t.backend.container.get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry);
  const world: HostileWorld = { admin, organizationId, apiKey, recordIds: new Map(), registry };
  for (const operation of registry.listOperations()) {
    if (operation.core !== CoreResourceOperation.CREATE || !operation.http || !operation.inputSchema) continue;
    const created = await t.api
      .post(urlOf(world, operation, ''))
      .set(admin.auth)
      .send(minimalValueFor(operation.inputSchema) as object);
    if (created.status === 201) world.recordIds.set(operation.resourceType, created.body.data._id as string);
  }
  return world;
}

/** An operation's URL in the world's organization, for `id` (or the world's record of its resource). */
export function urlOf(world: HostileWorld, operation: CompiledOperation, id?: string): string {
  const path = (operation.http?.path ?? '')
    .replace(':organizationId', world.organizationId)
    .replace(':id', id ?? world.recordIds.get(operation.resourceType) ?? 'missing');
  return `/api/v1${path}`;
}

/** A text field of a REST body: where hostile text goes, the smallest valid body around it, and whether it is read back. */
export interface BodyTarget {
  operation: CompiledOperation;
  path: TextPath;
  base: unknown;
  /** The control (the same body with plain text) was stored, so valid text must be stored and read back too. */
  readBack: boolean;
}

/** Sends a REST body to its operation as the world's admin. */
export function sendBody(
  t: TestBackend,
  world: HostileWorld,
  operation: CompiledOperation,
  body: unknown,
): supertest.Test {
  const url = urlOf(world, operation);
  const request = operation.http?.method === 'PUT' ? t.api.put(url) : t.api.post(url);
  return request.set(world.admin.auth).send(body as object);
}

/**
 * Every text field of every REST operation that takes a body, each with its positive control already sent. Operations
 * bound to a connector are left out: their valid calls go to a backend this world does not run (503); their input
 * contract is the same dispatch step as everyone's, and the connector tests probe them against a backend.
 */
export async function bodyTargets(t: TestBackend, world: HostileWorld): Promise<BodyTarget[]> {
  const targets: BodyTarget[] = [];
  const connectors = t.backend.container.get<ConnectorRuntime>(CONNECTORS_TYPES.ConnectorRuntime);
  for (const operation of world.registry.listOperations()) {
    if (!operation.http || !operation.inputSchema || operation.http.method === 'GET' || operation.unimplemented)
      continue;
    if (connectors.binds(operation.resourceType, operation.operation)) continue;
    for (const path of textPathsOf(operation.inputSchema)) {
      const base = minimalValueFor(operation.inputSchema, path);
      const control = await sendBody(t, world, operation, base);
      expect(control.status, control.text).toBeLessThan(500);
      const stores = operation.core === CoreResourceOperation.CREATE || operation.core === CoreResourceOperation.UPDATE;
      targets.push({ operation, path, base, readBack: stores && control.status < 300 });
    }
  }
  return targets;
}

/** A tool of an MCP catalogue and one of its text arguments. */
export interface ToolTarget {
  endpoint: string;
  tool: string;
  operation: CompiledOperation;
  /** Arguments that address the record and organization (not part of the operation's body). */
  addressing: Record<string, unknown>;
  path: TextPath;
  base: Record<string, unknown>;
  readBack: boolean;
}

/** Every text argument of every resource tool of every MCP catalogue: body fields, string filters, id and organization. */
export function toolTargets(t: TestBackend, world: HostileWorld): Omit<ToolTarget, 'readBack'>[] {
  const catalogues = t.backend.container.get<McpToolCatalogue>(SAAS_SERVICE_TYPES.McpToolCatalogue).all();
  const targets: Omit<ToolTarget, 'readBack'>[] = [];
  for (const [instance, entries] of catalogues) {
    const endpoint = instance ? `/api/v1/mcp/${instance}` : '/api/v1/mcp';
    for (const [tool, entry] of entries) {
      const binding = entry.resource;
      if (!binding || binding.operation.lifecycle === 'retired') continue;
      const { operation } = binding;
      const addressing: Record<string, unknown> = {
        ...(binding.idArgument
          ? { [binding.idArgument]: world.recordIds.get(operation.resourceType) ?? 'missing' }
          : {}),
        ...(binding.organizationArgument ? { organizationId: world.organizationId } : {}),
      };
      const listing = operation.core === CoreResourceOperation.LIST;
      const paths: TextPath[] = [
        ...Object.keys(addressing).map((key) => [key]),
        ...(listing
          ? [...operation.filters.values()].filter((f) => f.kind === 'string').map((f) => [f.name])
          : operation.inputSchema
            ? textPathsOf(operation.inputSchema)
            : []),
      ];
      for (const path of paths) {
        const body =
          !listing && operation.inputSchema
            ? (minimalValueFor(
                operation.inputSchema,
                typeof path[0] === 'string' && path[0] in addressing ? [] : path,
              ) as Record<string, unknown>)
            : {};
        targets.push({ endpoint, tool, operation, addressing, path, base: { ...body, ...addressing } });
      }
    }
  }
  return targets;
}
