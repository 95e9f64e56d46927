import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { acceptInvitation, addMember, createOrganization, invite, signUp } from '../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';
import { RedisCoordination } from '../coordination/index.js';
import { USER_CHANGED_CHANNEL } from '../identity/sql-principal-directory.service.js';
import { createSilentLogger } from '../logging/index.js';

const redisUrl = process.env.REDIS_URL;
const database = useTestDatabase();

/** Two replicas of the reference application sharing one database and one Redis namespace. */
async function twoReplicas() {
  const prefix = `test:replicas:${randomUUID()}:`;
  const options = { redisUrl: redisUrl as string, coordinationKeyPrefix: prefix };
  const a = await createTestBackend(database(), options);
  const b = await createTestBackend(database(), options);
  return { a, b, prefix, close: async () => Promise.all([a.close(), b.close()]) };
}

/**
 * Asks replica B again until `settled` (20 ms apart, 100 times at most). B receives the announcement on its own
 * connection; its cache TTL is 60 s, so a change within this window can only come from the announcement.
 */
async function untilSettled(
  ask: () => supertest.Test,
  settled: (res: supertest.Response) => boolean,
): Promise<supertest.Response> {
  let res = await ask();
  for (let i = 0; i < 100 && !settled(res); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    res = await ask();
  }
  return res;
}

describe.skipIf(!redisUrl)('several replicas on Redis', () => {
  it('share an operation’s rate policy', async () => {
    const { a, b, close } = await twoReplicas();
    try {
      const user = await signUp(a.api);
      const orgId = await createOrganization(a.api, user);
      const path = `/api/v1/organizations/${orgId}/todos/stats`;
      for (let i = 0; i < 15; i++) expect((await a.api.post(path).set(user.auth).send({})).status).toBe(200);
      for (let i = 0; i < 15; i++) expect((await b.api.post(path).set(user.auth).send({})).status).toBe(200);
      expect((await b.api.post(path).set(user.auth).send({})).status).toBe(429);
      expect((await a.api.post(path).set(user.auth).send({})).status).toBe(429);
    } finally {
      await close();
    }
  });

  it('cut a demoted member off on every replica as soon as the change is announced', async () => {
    const { a, b, prefix, close } = await twoReplicas();
    const listener = new RedisCoordination({
      url: redisUrl as string,
      keyPrefix: prefix,
      logger: createSilentLogger(),
    });
    try {
      const owner = await signUp(a.api);
      const manager = await signUp(a.api);
      const orgId = await createOrganization(a.api, owner);
      await addMember(a.api, owner, orgId, manager, 'ORG_MANAGER');
      const path = `/api/v1/organizations/${orgId}/todos`;
      // Replica B caches the manager's roles.
      expect((await b.api.get(path).set(manager.auth)).status).toBe(200);
      let announce!: () => void;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      await listener.subscribe(USER_CHANGED_CHANNEL, (userId) => userId === manager.userId && announce());
      expect(
        (
          await a.api
            .put(`/api/v1/organizations/${orgId}/members/${manager.userId}`)
            .set(owner.auth)
            .send({ role: 'ORG_MEMBER' })
        ).status,
      ).toBe(200);
      await announced;
      const refused = await untilSettled(
        () => b.api.get(path).set(manager.auth),
        (res) => res.status !== 200,
      );
      expect(refused.status).toBe(401);
      expect(refused.body.error.reason).toBe('credential_invalid');
    } finally {
      await listener.close();
      await close();
    }
  });

  it('let a person who accepted an invitation on one replica in on every replica as soon as it is announced', async () => {
    const { a, b, prefix, close } = await twoReplicas();
    const listener = new RedisCoordination({
      url: redisUrl as string,
      keyPrefix: prefix,
      logger: createSilentLogger(),
    });
    try {
      const owner = await signUp(a.api);
      const person = await signUp(a.api);
      const orgId = await createOrganization(a.api, owner);
      const invitationId = await invite(a.api, owner, orgId, person.email, 'ORG_MEMBER');
      const path = `/api/v1/organizations/${orgId}/todos`;
      // Replica B caches the person without the membership.
      expect((await b.api.get(path).set(person.auth)).status).toBe(404);
      let announce!: () => void;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      await listener.subscribe(USER_CHANGED_CHANNEL, (userId) => userId === person.userId && announce());
      await acceptInvitation(a.api, person, invitationId);
      await announced;
      // The fresh token names the new authorization version: B accepts it only once its cache was dropped.
      const admitted = await untilSettled(
        () => b.api.get(path).set(person.auth),
        (res) => res.status === 200,
      );
      expect(admitted.status).toBe(200);
    } finally {
      await listener.close();
      await close();
    }
  });
});
