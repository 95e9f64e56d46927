import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';
import { agency, governanceProbesApplication } from './governance-probes.fixtures.js';
import { governedStack } from './governance-surfaces.fixtures.js';

const redisUrl = process.env.REDIS_URL;
const database = useTestDatabase();

describe.skipIf(!redisUrl)('a per-caller rate limit on Redis (S-11)', () => {
  it('holds across two replicas: the fourth call in the window is refused on either, before the agency is asked', async () => {
    const options = { redisUrl: redisUrl as string, coordinationKeyPrefix: `test:governance:${randomUUID()}:` };
    const a = await governedStack(database(), options);
    const b = await createTestBackend(database(), { ...options, application: governanceProbesApplication });
    try {
      const path = `/api/v1/organizations/${a.orgId}/stays/availability`;
      const { member, manager } = a.people;
      const ask = (replica: typeof b, caller = member) =>
        replica.api.post(path).set(caller.auth).send({ propertyId: 'ws-1001' });
      expect((await ask(a.t)).status).toBe(200);
      expect((await ask(b)).status).toBe(200);
      expect((await ask(a.t)).status).toBe(200);
      const before = agency.reached('availability');
      for (const replica of [b, a.t]) {
        const refused = await ask(replica);
        expect(refused.status).toBe(429);
        expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', reason: 'rate_limit_exceeded' });
      }
      expect(agency.reached('availability')).toBe(before);
      // The count is the caller's own: another person is still answered on both replicas.
      expect((await ask(b, manager)).status).toBe(200);
    } finally {
      await Promise.all([a.t.close(), b.close()]);
    }
  });
});
