import {
  CORE_APP_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signUp } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';
import type { BackendApplicationDefinition } from '../bootstrap/backend-domain-module.js';
import { InProcessCoordination } from '../coordination/index.js';
import type { CounterPolicy } from '../coordination/coordination.js';
import { createLogger, createSilentLogger } from '../logging/index.js';
import { createResourceCustomServiceImplementation } from '../resources/custom-service.js';

const database = useTestDatabase();
const API_CALL = ResourceOperationVariantType.API_CALL;
const user = [CORE_APP_ROLES.APP_USER];

/** An application exercising lifecycle states, a failing handler and a rate policy. */
const probes = defineResource({
  type: 'probes',
  displayName: 'Probes',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ label: z.string() }),
  customOperations: {
    explode: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: z.object({}),
      effect: ResourceOperationEffect.READ,
    },
    legacy: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: z.object({ ok: z.boolean() }),
      effect: ResourceOperationEffect.READ,
    },
    gone: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: z.object({ ok: z.boolean() }),
      effect: ResourceOperationEffect.READ,
    },
    later: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: z.object({ ok: z.boolean() }),
      effect: ResourceOperationEffect.READ,
    },
    limited: {
      target: 'collection',
      requestSchema: z.object({}),
      responseSchema: z.object({ ok: z.boolean() }),
      effect: ResourceOperationEffect.READ,
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.LIST]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    explode: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    legacy: { variants: [{ variantType: API_CALL, isDefault: true, roles: user, lifecycle: 'deprecated' }] },
    gone: { variants: [{ variantType: API_CALL, isDefault: true, roles: user, lifecycle: 'retired' }] },
    later: { variants: [{ variantType: API_CALL, isDefault: true, roles: user, unimplemented: true }] },
    limited: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: user, rateLimit: { points: 100, durationSeconds: 60 } },
      ],
    },
  },
});

let handlerCalls = 0;
const probesApplication: BackendApplicationDefinition = {
  name: 'probes',
  modules: [
    {
      name: 'probes',
      resources: [probes],
      customServiceImplementations: [
        createResourceCustomServiceImplementation('probes', {
          customOperations: {
            explode: async () => {
              throw new Error('connection to 10.0.0.7:5432 refused (secret-internal-detail)');
            },
            legacy: async () => ({ ok: true }),
            gone: async () => ((handlerCalls += 1), { ok: true }),
            limited: async () => ({ ok: true }),
          },
        }),
      ],
    },
  ],
};

/** A coordination backend whose counters can be made to fail, to test fail-open and fail-closed paths. */
class BreakableCoordination extends InProcessCoordination {
  broken = false;
  override consume(key: string, policy: CounterPolicy, cost?: number) {
    return this.broken ? Promise.reject(new Error('counter store down')) : super.consume(key, policy, cost);
  }
}

describe('the HTTP surface', () => {
  it('answers health without authentication', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api.get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok', version: '0.1.0' } });
  });

  it('answers unknown routes with a structured 404 that does not repeat the path', async () => {
    await using t = await createTestBackend(database());
    const res = await t.api.get('/api/v1/<script>alert(1)</script>');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res.body)).not.toContain('script');
  });

  it('keeps a safe incoming request id and replaces an unsafe one', async () => {
    await using t = await createTestBackend(database());
    expect((await t.api.get('/api/v1/health').set('x-request-id', 'req-12345678')).headers['x-request-id']).toBe(
      'req-12345678',
    );
    const replaced = await t.api.get('/api/v1/health').set('x-request-id', 'evil value <with> spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns an unexpected handler failure into a generic 500 without internal text', async () => {
    await using t = await createTestBackend(database(), { application: probesApplication, allowServerErrors: true });
    const caller = await signUp(t.api);
    const res = await t.api.post('/api/v1/probes/explode').set(caller.auth).send({});
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ code: 'INTERNAL', message: 'An internal error occurred.' });
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.7|secret-internal-detail|Error/);
    expect(t.serverErrors).toHaveLength(1);
  });

  it('refuses a retired operation before dispatching it', async () => {
    await using t = await createTestBackend(database(), { application: probesApplication });
    const caller = await signUp(t.api);
    const before = handlerCalls;
    const res = await t.api.post('/api/v1/probes/gone').set(caller.auth).send({});
    expect(res.status).toBe(410);
    expect(res.body.error).toMatchObject({ code: 'OPERATION_RETIRED', reason: 'lifecycle_blocked' });
    expect(handlerCalls).toBe(before);
  });

  it('serves a deprecated operation with a Deprecation header', async () => {
    await using t = await createTestBackend(database(), { application: probesApplication });
    const caller = await signUp(t.api);
    const res = await t.api.post('/api/v1/probes/legacy').set(caller.auth).send({});
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe('true');
  });

  it('does not route an operation declared as not implemented', async () => {
    await using t = await createTestBackend(database(), { application: probesApplication });
    const caller = await signUp(t.api);
    expect((await t.api.post('/api/v1/probes/later').set(caller.auth).send({})).status).toBe(404);
  });

  it('throttles a principal’s burst, and lets requests through when the counter store fails', async () => {
    const coordination = new BreakableCoordination({ logger: createSilentLogger() });
    try {
      await using t = await createTestBackend(database(), {
        application: probesApplication,
        coordination,
        http: { burst: { points: 3, durationMs: 60_000 } },
      });
      // Signed up before the throttle applies to the caller (the sign-up's own requests are anonymous).
      const { auth: headers } = await signUp(t.api, 'burst');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.api.get('/api/v1/probes').set(headers)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      coordination.broken = true;
      expect((await t.api.get('/api/v1/probes').set(headers)).status).toBe(200);
    } finally {
      await coordination.close();
    }
  });

  it('refuses an operation with a rate policy when its counter store fails (fail closed)', async () => {
    const coordination = new BreakableCoordination({ logger: createSilentLogger() });
    try {
      await using t = await createTestBackend(database(), {
        application: probesApplication,
        coordination,
        allowServerErrors: true,
      });
      const caller = await signUp(t.api);
      expect((await t.api.post('/api/v1/probes/limited').set(caller.auth).send({})).status).toBe(200);
      coordination.broken = true;
      const res = await t.api.post('/api/v1/probes/limited').set(caller.auth).send({});
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await coordination.close();
    }
  });
});

describe('the access log', () => {
  it('records route patterns, statuses and principals, never raw URLs or credentials', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    await using t = await createTestBackend(database(), { logger: createLogger({ level: 'info', destination }) });
    const caller = await signUp(t.api);
    await t.api.get('/api/v1/organizations/hostile<script>/todos/xyz').set(caller.auth);
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'request');
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', route: '/api/v1/auth/signup', status: 202 }),
        expect.objectContaining({
          method: 'GET',
          route: '/api/v1/organizations/:organizationId/todos/:id',
          status: 404,
          principal: `user:${caller.userId}`,
        }),
      ]),
    );
    const all = lines.join('\n');
    expect(all).not.toContain('hostile<script>');
    expect(all).not.toContain(caller.token);
    expect(all).not.toContain('correct horse battery staple');
  });
});
