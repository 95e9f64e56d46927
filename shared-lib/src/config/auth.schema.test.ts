import { describe, expect, it } from 'vitest';
import {
  AuthConfigSchema,
  CimdConfigSchema,
  CimdTrustPolicy,
  DynamicClientRegistrationConfigSchema,
} from './auth.schema.js';

function cimdProblems(input: unknown): string[] {
  const result = CimdConfigSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('auth.dynamicClientRegistration', () => {
  it('is off with ten registrations per IP per hour by default', () => {
    expect(DynamicClientRegistrationConfigSchema.parse({})).toEqual({
      enabled: false,
      maxRegistrationsPerHourPerIp: 10,
    });
  });

  it('keeps the default ceiling when only enabled', () => {
    expect(DynamicClientRegistrationConfigSchema.parse({ enabled: true }).maxRegistrationsPerHourPerIp).toBe(10);
  });

  it('rejects a ceiling below one', () => {
    expect(DynamicClientRegistrationConfigSchema.safeParse({ maxRegistrationsPerHourPerIp: 0 }).success).toBe(false);
  });
});

describe('auth.cimd', () => {
  it('is DISABLED by default', () => {
    expect(CimdConfigSchema.parse({})).toEqual({ policy: CimdTrustPolicy.DISABLED, allowedClients: [] });
  });

  it('accepts an exact https document URL and a bare host', () => {
    expect(
      cimdProblems({ policy: 'ALLOWLIST', allowedClients: ['https://tool.example/client.json', 'tool.example'] }),
    ).toEqual([]);
  });

  it('requires at least one entry for ALLOWLIST', () => {
    expect(cimdProblems({ policy: 'ALLOWLIST' })).toEqual([
      'allowedClients: policy ALLOWLIST needs at least one client URL or host; add one or choose DISABLED',
    ]);
  });

  it.each([
    ['http://tool.example/client.json', 'a client metadata document URL must use https'],
    ['https://tool.example/client.json#x', 'remove the "#fragment" from the URL'],
    ['https://user:pw@tool.example/c.json', 'remove the credentials from the URL'],
    ['https://tool.example/', 'name the document itself (https://host/path/client.json), not the site root'],
    ['Tool_Example', 'a bare host must be a lower-case DNS name such as tool.example'],
  ])('rejects the allowlist entry %s', (entry, message) => {
    expect(cimdProblems({ policy: 'ALLOWLIST', allowedClients: [entry] })).toEqual([`allowedClients.0: ${message}`]);
  });

  it('refuses an allowlist under OPEN, where it would not be enforced', () => {
    expect(cimdProblems({ policy: 'OPEN', allowedClients: ['tool.example'] })).toHaveLength(1);
  });
});

describe('auth lifetimes', () => {
  it('defaults consent grants to 180 days and access tokens to 15 minutes', () => {
    expect(AuthConfigSchema.parse({})).toMatchObject({ consentGrantLifetimeDays: 180, accessTokenLifetimeMinutes: 15 });
  });

  it.each([0, 3651, 1.5])('rejects a consent lifetime of %s days', (days) => {
    expect(AuthConfigSchema.safeParse({ consentGrantLifetimeDays: days }).success).toBe(false);
  });

  it.each([1, 3650])('accepts a consent lifetime of %s days', (days) => {
    expect(AuthConfigSchema.safeParse({ consentGrantLifetimeDays: days }).success).toBe(true);
  });

  it('bounds the access-token lifetime', () => {
    expect(AuthConfigSchema.safeParse({ accessTokenLifetimeMinutes: 0 }).success).toBe(false);
    expect(AuthConfigSchema.safeParse({ accessTokenLifetimeMinutes: 1441 }).success).toBe(false);
  });
});
