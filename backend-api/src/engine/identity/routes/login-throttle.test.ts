import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, TEST_PASSWORD, type TestUser } from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { DEFAULT_LOGIN_THROTTLE, type LoginThrottlePolicy } from '../login-throttle.policy.js';

// Each request names its client address in X-Forwarded-For (the backend trusts the proxy header here), so one
// test plays the owner, an attacker and a botnet. Every test uses addresses of its own.
const WRONG = 'not the password at all';
const FIFTEEN_MINUTES_S = 15 * 60;

const database = useTestDatabase();

/** A fresh block of client addresses for one test: `from(n)` is its n-th address. */
function addressBlock(): (n: number) => string {
  const block = randomUUID().replace(/\D/g, '').padEnd(4, '7');
  return (n) => `10.${Number(block.slice(0, 2))}.${Number(block.slice(2, 4))}.${n}`;
}

function login(t: TestBackend, ip: string, email: string, password: string) {
  return t.api.post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });
}

/** Statuses of `count` wrong-password attempts, in order. */
async function fail(t: TestBackend, ip: string, email: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await login(t, ip, email, WRONG)).status);
  return statuses;
}

function expectRefused(
  res: { status: number; headers: Record<string, string>; body: { error?: { reason?: string } } },
  maxWaitSeconds: number,
) {
  expect(res.status).toBe(429);
  expect(res.body.error?.reason).toBe('rate_limit_exceeded');
  const wait = Number(res.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(maxWaitSeconds);
}

async function backendWith(loginThrottle: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE): Promise<TestBackend> {
  return createTestBackend(database(), { http: { trustProxy: true }, identity: { loginThrottle } });
}

describe('sign-in throttling with the default budgets', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await backendWith();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets the owner in from a fresh address after twenty failures from a mix of addresses', async () => {
    const owner = await signUp(t.api, 'owner');
    const ip = addressBlock();
    const statuses = [];
    for (let source = 1; source <= 4; source++) statuses.push(...(await fail(t, ip(source), owner.email, 5)));
    expect(statuses).toEqual(Array(20).fill(401));
    const res = await login(t, ip(99), owner.email, TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data.user._id).toBe(owner.userId);
  });

  it('refuses an address that spent its budget on an account, before checking even the right password', async () => {
    const owner = await signUp(t.api, 'target');
    const ip = addressBlock();
    expect(await fail(t, ip(1), owner.email, DEFAULT_LOGIN_THROTTLE.perAccountSource.points)).toEqual(
      Array(5).fill(401),
    );
    expectRefused(await login(t, ip(1), owner.email, TEST_PASSWORD), FIFTEEN_MINUTES_S);
    // Control: the account itself is not locked; another address signs in.
    expect((await login(t, ip(2), owner.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('bounds guessing from one address across many accounts', async () => {
    const user = await signUp(t.api, 'bystander');
    const ip = addressBlock();
    const statuses = [];
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perSource.points; i++) {
      statuses.push((await login(t, ip(1), `guess-${i}-${randomUUID()}@example.test`, WRONG)).status);
    }
    expect(statuses).toEqual(Array(20).fill(401));
    expectRefused(await login(t, ip(1), user.email, TEST_PASSWORD), FIFTEEN_MINUTES_S);
    expect((await login(t, ip(2), user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('clears the (account, address) count on a success', async () => {
    const user = await signUp(t.api, 'typo');
    const ip = addressBlock();
    expect(await fail(t, ip(1), user.email, 4)).toEqual([401, 401, 401, 401]);
    expect((await login(t, ip(1), user.email, TEST_PASSWORD)).status).toBe(200);
    // Without the reset the second of these would already be refused (4 + 2 > 5).
    expect(await fail(t, ip(1), user.email, 5)).toEqual([401, 401, 401, 401, 401]);
    expectRefused(await login(t, ip(1), user.email, TEST_PASSWORD), FIFTEEN_MINUTES_S);
  });

  it('admits no more parallel guesses than the budget: each attempt reserves its failure first', async () => {
    const user = await signUp(t.api, 'parallel');
    const ip = addressBlock();
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => login(t, ip(1), user.email, WRONG))))
      .map((res) => res.status)
      .sort((a, b) => a - b);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
  });

  it('counts an IPv6 /64 as one source', async () => {
    const user = await signUp(t.api, 'ipv6');
    const statuses = [];
    // Five addresses of one /64 network (a subscriber's usual allocation).
    for (let i = 1; i <= 5; i++) statuses.push((await login(t, `2001:db8:77:0::${i}`, user.email, WRONG)).status);
    expect(statuses).toEqual(Array(5).fill(401));
    expectRefused(await login(t, '2001:db8:77:0:ffff::1', user.email, TEST_PASSWORD), FIFTEEN_MINUTES_S);
    expect((await login(t, '2001:db8:77:1::1', user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('counts failures, not sign-ins: many successes from one address are never refused', async () => {
    const user = await signUp(t.api, 'office');
    const ip = addressBlock();
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perSource.points + 2; i++)
      expect((await login(t, ip(1), user.email, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('sign-in throttling of a distributed attack on one account', () => {
  // A small account-wide budget so the test stays short; the rule is the same at the default of 100 per hour.
  const policy: LoginThrottlePolicy = { ...DEFAULT_LOGIN_THROTTLE, perAccount: { points: 6, durationMs: 60 * 60_000 } };
  let t: TestBackend;
  let owner: TestUser;
  let ip: (n: number) => string;

  beforeAll(async () => {
    t = await backendWith(policy);
    owner = await signUp(t.api, 'celebrity');
    ip = addressBlock();
    // Six attacking addresses, one guess each: the account-wide budget is spent.
    for (let source = 1; source <= 6; source++) expect(await fail(t, ip(source), owner.email, 1)).toEqual([401]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses an address that has already failed, even within its own budgets', async () => {
    expectRefused(await login(t, ip(1), owner.email, WRONG), FIFTEEN_MINUTES_S);
  });

  it('still admits the owner from an address that never failed', async () => {
    expect((await login(t, ip(50), owner.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('gives a new attacking address one guess, then refuses it', async () => {
    expect((await login(t, ip(60), owner.email, WRONG)).status).toBe(401);
    expectRefused(await login(t, ip(60), owner.email, WRONG), FIFTEEN_MINUTES_S);
  });
});
