import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, TEST_PASSWORD, type TestUser } from '../../../testing/identity.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { InProcessCoordination } from '../../coordination/in-process-coordination.js';
import { createSilentLogger } from '../../logging/index.js';
// The throttle's defaults as an application reads them.
import { DEFAULT_LOGIN_THROTTLE } from '@wildo/backend-api';

// Each request names its client address in X-Forwarded-For (the backend trusts the proxy header here), so one test
// plays the owner, an attacker and a botnet. `t.api` keeps cookies: an account signed up through it signs in again
// from a device it knows. `t.newDevice()` is a browser that never signed in. Every test uses addresses of its own.
const WRONG = 'not the password at all';
const MINUTE_S = 60;
const QUARTER_HOUR_S = 15 * 60;

const database = useTestDatabase();

/** A fresh block of client addresses for one test: `from(n)` is its n-th address. */
function addressBlock(): (n: number) => string {
  const block = randomUUID().replace(/\D/g, '').padEnd(4, '7');
  return (n) => `10.${Number(block.slice(0, 2))}.${Number(block.slice(2, 4))}.${n}`;
}

function login(client: supertest.Agent, ip: string, email: string, password: string) {
  return client.post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });
}

/** Statuses of `count` wrong-password attempts, in order. */
async function fail(client: supertest.Agent, ip: string, email: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await login(client, ip, email, WRONG)).status);
  return statuses;
}

/** A refusal that names the wait, within `waitSeconds` (and above `atLeastSeconds`). */
function expectRefused(
  res: { status: number; headers: Record<string, string>; body: { error?: { reason?: string } } },
  waitSeconds: number,
  atLeastSeconds = 0,
) {
  expect(res.status).toBe(429);
  expect(res.body.error?.reason).toBe('rate_limit_exceeded');
  const wait = Number(res.headers['retry-after']);
  expect(wait).toBeGreaterThan(atLeastSeconds);
  expect(wait).toBeLessThanOrEqual(waitSeconds);
}

describe('sign-in throttling with the default budgets', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database(), { http: { trustProxy: true } });
  });
  afterAll(() => t?.close());

  it('slows, then refuses, 30 failures from 30 addresses against one account; the owner’s device still gets in', async () => {
    const owner = await signUp(t.api, 'celebrity');
    const ip = addressBlock();
    const botnet = t.newDevice();
    const answers = [];
    for (let source = 1; source <= 30; source++) answers.push(await login(botnet, ip(source), owner.email, WRONG));
    // Five guesses, then every address waits: the account's budget for unknown devices is shared.
    expect(answers.map((res) => res.status)).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    for (const refused of answers.slice(5)) expectRefused(refused, MINUTE_S);
    // The owner, on the device the account was created on, from yet another address: at once.
    const owners = await login(t.api, ip(99), owner.email, TEST_PASSWORD);
    expect(owners.status).toBe(200);
    expect(owners.body.data.user._id).toBe(owner.userId);
    // A device the account never used shares the budget the attack spent (the price of no lockout on known ones).
    expectRefused(await login(t.newDevice(), ip(98), owner.email, TEST_PASSWORD), MINUTE_S);
  });

  it('gives a known device a budget of its own, and judges it as unknown once it is spent', async () => {
    const owner = await signUp(t.api, 'forgetful');
    const ip = addressBlock();
    // An attack spends the account's budget for unknown devices.
    expect(await fail(t.newDevice(), ip(1), owner.email, 5)).toEqual(Array(5).fill(401));
    // The owner's own device mistypes ten times (its budget), from one address, unhindered by the attack.
    expect(await fail(t.api, ip(2), owner.email, DEFAULT_LOGIN_THROTTLE.perDevice.points)).toEqual(Array(10).fill(401));
    expectRefused(await login(t.api, ip(2), owner.email, TEST_PASSWORD), MINUTE_S);
  });

  it('trusts no device cookie but a genuine one for the same account', async () => {
    const owner = await signUp(t.api, 'target');
    const other = await signUp(t.api, 'other');
    const ip = addressBlock();
    const signedIn = await login(t.api, ip(1), other.email, TEST_PASSWORD);
    const othersCookie = String(signedIn.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
    expect(othersCookie).toMatch(/^wildo_device_[\w-]{16}=[\w-]{22}\.[\w-]{43}$/);
    expect(String(signedIn.headers['set-cookie']?.[0])).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/);
    expect(await fail(t.newDevice(), ip(2), owner.email, 5)).toEqual(Array(5).fill(401));
    const [name] = othersCookie.split('=');
    const forged = `${name}=${'A'.repeat(22)}.${'B'.repeat(43)}`;
    for (const cookie of [othersCookie, forged]) {
      const res = await t
        .newDevice()
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', ip(3))
        .set('Cookie', cookie)
        .send({
          email: owner.email,
          password: TEST_PASSWORD,
        });
      expectRefused(res, MINUTE_S);
    }
  });

  it('bounds guessing from one address across many accounts', async () => {
    const user = await signUp(t.api, 'bystander');
    const ip = addressBlock();
    const guesser = t.newDevice();
    const statuses = [];
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perSource.points; i++) {
      statuses.push((await login(guesser, ip(1), `guess-${i}-${randomUUID()}@example.test`, WRONG)).status);
    }
    expect(statuses).toEqual(Array(20).fill(401));
    expectRefused(await login(t.newDevice(), ip(1), user.email, TEST_PASSWORD), QUARTER_HOUR_S);
    expect((await login(t.newDevice(), ip(2), user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('admits no more parallel guesses than the budget: each attempt reserves its failure first', async () => {
    const user = await signUp(t.api, 'parallel');
    const ip = addressBlock();
    const guesser = t.newDevice();
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => login(guesser, ip(1), user.email, WRONG))))
      .map((res) => res.status)
      .sort((a, b) => a - b);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
  });

  it('counts failures, not sign-ins: many successes from one address are never refused', async () => {
    const user = await signUp(t.api, 'office');
    const ip = addressBlock();
    // A new browser each time (a shared office machine that keeps no cookies).
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.perSource.points + 2; i++)
      expect((await login(t.newDevice(), ip(1), user.email, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('sign-in throttling over time (a controlled clock)', () => {
  let now = 0;
  const coordination = new InProcessCoordination({ logger: createSilentLogger(), clock: () => now });
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database(), { http: { trustProxy: true }, coordination });
  });
  afterAll(async () => {
    await t?.close();
    await coordination.close();
  });
  const later = (seconds: number) => {
    now += seconds * 1_000;
  };

  it('makes the wait grow with the failures from unknown devices: a minute, then a quarter hour, then an hour', async () => {
    const owner: TestUser = await signUp(t.api, 'patient');
    const ip = addressBlock();
    const botnet = t.newDevice();
    let source = 0;
    /** `count` guesses, each from an address of its own. */
    const round = async (count: number) => {
      const statuses = [];
      for (let i = 0; i < count; i++) statuses.push(...(await fail(botnet, ip(++source), owner.email, 1)));
      return statuses;
    };
    expect(await round(5)).toEqual(Array(5).fill(401));
    expectRefused(await login(botnet, ip(++source), owner.email, WRONG), MINUTE_S);
    later(61);
    expect(await round(5)).toEqual(Array(5).fill(401));
    expectRefused(await login(botnet, ip(++source), owner.email, WRONG), QUARTER_HOUR_S, MINUTE_S);
    // Two more quarter hours of ten: thirty within the hour, and the next unknown device waits for the hour's window.
    for (let quarter = 0; quarter < 2; quarter++) {
      later(15 * 60);
      expect(await round(5)).toEqual(Array(5).fill(401));
      later(61);
      expect(await round(5)).toEqual(Array(5).fill(401));
    }
    expectRefused(await login(botnet, ip(++source), owner.email, WRONG), 60 * 60, QUARTER_HOUR_S);
    // All along, the owner's device: at once.
    expect((await login(t.api, ip(++source), owner.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses an address that spent its budget on an account, before checking even the right password', async () => {
    const owner = await signUp(t.api, 'typist');
    const ip = addressBlock();
    const device = t.newDevice();
    expect(await fail(device, ip(1), owner.email, DEFAULT_LOGIN_THROTTLE.perAccountSource.points)).toEqual(
      Array(5).fill(401),
    );
    later(61);
    expectRefused(await login(device, ip(1), owner.email, TEST_PASSWORD), QUARTER_HOUR_S);
    // Control: the account itself is not locked; another address signs in from an unknown device too.
    expect((await login(t.newDevice(), ip(2), owner.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('clears the (account, address) count on a success', async () => {
    const user = await signUp(t.api, 'typo');
    const ip = addressBlock();
    // A browser that keeps no cookies: every attempt comes from an unknown device.
    const device = t.newDevice();
    expect(await fail(device, ip(1), user.email, 4)).toEqual([401, 401, 401, 401]);
    expect((await login(t.newDevice(), ip(1), user.email, TEST_PASSWORD)).status).toBe(200);
    later(61);
    // Without the reset the second of these would already be refused (4 + 2 > 5).
    expect(await fail(device, ip(1), user.email, 5)).toEqual([401, 401, 401, 401, 401]);
    later(61);
    expectRefused(await login(t.newDevice(), ip(1), user.email, TEST_PASSWORD), QUARTER_HOUR_S);
  });

  it('counts an IPv6 /64 as one source', async () => {
    const user = await signUp(t.api, 'ipv6');
    const device = t.newDevice();
    const statuses = [];
    // Five addresses of one /64 network (a subscriber's usual allocation).
    for (let i = 1; i <= 5; i++) statuses.push((await login(device, `2001:db8:77:0::${i}`, user.email, WRONG)).status);
    expect(statuses).toEqual(Array(5).fill(401));
    later(61);
    expectRefused(await login(device, '2001:db8:77:0:ffff::1', user.email, TEST_PASSWORD), QUARTER_HOUR_S);
    expect((await login(device, '2001:db8:77:1::1', user.email, TEST_PASSWORD)).status).toBe(200);
  });
});
