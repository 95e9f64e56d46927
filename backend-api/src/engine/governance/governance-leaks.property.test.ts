import { findLeaks, type LeakRules } from '@wildo/backend-api/testing';
import {
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  z_image,
} from '@wildo/shared-lib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { arbitraryFor, plainObjectsIn } from '../../testing/zod-arbitrary.js';
import { refusalOf } from '../agents/runtime/turn-messages.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { Authenticator } from '../identity/authenticator.service.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import { successResult } from '../mcp/mcp-results.js';
import type { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';

// Random extra fields, at random depths, in random handler answers: through the one dispatch path, none of them
// ever reaches a result, as REST, MCP or an agent tool would render it. The leak checker is the public one.

const IMAGES = 'https://img.agency.example';
const RULES: LeakRules = {
  fields: ['margin', 'passport', 'guests', 'internalCost', 'hostContact'],
  values: [/DEMO-PASS-\d{6}/, /partner-photos\.example/],
};

/** Answers of several shapes: objects in lists in objects, a record, optional fields, nullable ones, images. */
const contracts = {
  details: z.object({
    stay: z.object({
      name: z.string(),
      rating: z.number().optional(),
      rooms: z.array(
        z.object({
          name: z.string(),
          amenities: z.array(z.object({ name: z.string(), fee: z.number().nullable().optional() })),
        }),
      ),
    }),
  }),
  prices: z.object({ byNight: z.record(z.string(), z.object({ total: z.number(), open: z.boolean() })) }),
  gallery: z.object({ photos: z.array(z_image({ origins: [IMAGES] })), caption: z.string().optional() }),
};
type Contract = keyof typeof contracts;

/** What the next call's handler answers (set by the property before each dispatch). */
let nextAnswer: unknown;

const variant = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };
const echo = defineResource({
  type: 'echoes',
  displayName: 'Echoes',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ name: z.string() }),
  customOperations: {
    details: { target: 'collection', requestSchema: z.object({}), responseSchema: contracts.details, effect: 'read' },
    prices: { target: 'collection', requestSchema: z.object({}), responseSchema: contracts.prices, effect: 'read' },
    gallery: { target: 'collection', requestSchema: z.object({}), responseSchema: contracts.gallery, effect: 'read' },
  },
  operationsConfiguration: {
    details: { variants: [variant] },
    prices: { variants: [variant] },
    gallery: { variants: [variant] },
  },
});
const answer = async () => nextAnswer as never;
const echoService = echo.implement({ details: answer, prices: answer, gallery: answer });

const leakyValue = fc.oneof(
  fc.integer().map((n) => `DEMO-PASS-${String(100_000 + (Math.abs(n) % 900_000))}`),
  fc.constant('https://cdn.partner-photos.example/x.jpg'),
  fc.constant({ passport: 'DEMO-PASS-123456', phone: '+00 1' }),
  fc.constant([{ guests: [{ name: 'Ana', passport: 'DEMO-PASS-654321' }] }]),
  fc.double({ noNaN: true }),
);
/** Extra fields: which object (by depth-first index) receives which forbidden key and value. */
const extras = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...RULES.fields), leakyValue), {
  minLength: 1,
  maxLength: 8,
});

/** Adds the extras to the objects of `value`; returns how many were added. */
function pollute(value: unknown, additions: [number, string, unknown][]): number {
  const objects = plainObjectsIn(value);
  let added = 0;
  for (const [index, key, extra] of additions) {
    const target = objects[index % objects.length];
    if (!target || Object.hasOwn(target, key)) continue;
    target[key] = extra;
    added++;
  }
  return added;
}

const database = useTestDatabase();
let t: TestBackend;
let organizationId: string;
let principal: AuthenticatedPrincipal;

beforeAll(async () => {
  t = await createTestBackend(database(), {
    application: {
      name: 'echoes',
      modules: [{ name: 'echoes', resources: [echo], customServiceImplementations: [echoService] }],
    },
  });
  const owner = await signUp(t.api, 'echo-owner');
  organizationId = await createOrganization(t.api, owner);
  principal = (await t.backend.container
    .get<Authenticator>(SAAS_SERVICE_TYPES.Authenticator)
    .authenticate(owner.auth.Authorization)) as AuthenticatedPrincipal;
});
afterAll(async () => {
  await t?.close();
});

describe('random extra fields at random depths never reach a result', () => {
  for (const contract of Object.keys(contracts) as Contract[]) {
    it(`${contract}: the raw answer leaks (control); REST, MCP and tool renderings never do`, async () => {
      const dispatcher = t.backend.container.get<OperationDispatcher>(SAAS_SERVICE_TYPES.OperationDispatcher);
      const operation = t.backend.container
        .get<ResourcesRegistry>(SAAS_SERVICE_TYPES.ResourcesRegistry)
        .getOperationFromPath(`echoes.${contract}`);
      await fc.assert(
        fc.asyncProperty(arbitraryFor(contracts[contract]), extras, async (declared, additions) => {
          const polluted = structuredClone(declared);
          if (pollute(polluted, additions) === 0) return;
          expect(findLeaks(polluted, RULES), 'the control: the raw answer carries the extras').not.toEqual([]);
          nextAnswer = polluted;
          const request = {
            operation,
            principal,
            surface: 'tool' as const,
            requestId: 'r',
            contextIds: { organizationId },
          };
          const result = await dispatcher.dispatch(request).catch((error: unknown) => refusalOf(error));
          const rest = 'data' in result ? { data: result.data, withheld: result.withheld } : result;
          const mcp = 'data' in result ? successResult(result.data, result.withheld ?? []) : result;
          expect(findLeaks({ rest, mcp }, RULES)).toEqual([]);
          // An extra entry in a record is a declared key with a wrong-typed value: the whole result is refused.
          // Otherwise everything declared is kept as it was, and only the extras were dropped.
          if (!('data' in result)) expect(result).toMatchObject({ ok: false, error: { code: 'CONTRACT_VIOLATION' } });
          else if (contract !== 'gallery') expect(result.data).toEqual(declared);
        }),
        { numRuns: 60 },
      );
    });
  }
});
