import { CimdConfigSchema, CimdTrustPolicy } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { admitCimdClientId, parseCimdClientId } from './cimd-client-id.js';
import { CimdResolutionError, type CimdResolutionReason } from './cimd.errors.js';

function reasonOf(action: () => unknown): CimdResolutionReason | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CimdResolutionError);
    return (error as CimdResolutionError).reason;
  }
}

describe('parseCimdClientId', () => {
  it('accepts a canonical https document URL (positive control)', () => {
    expect(parseCimdClientId('https://tool.example/client.json').hostname).toBe('tool.example');
  });

  it.each([
    ['http', 'http://tool.example/client.json'],
    ['a fragment', 'https://tool.example/client.json#x'],
    ['credentials', 'https://user:pw@tool.example/client.json'],
    ['the site root', 'https://tool.example/'],
    ['an upper-case host (not canonical)', 'https://TOOL.example/client.json'],
    ['an explicit default port (not canonical)', 'https://tool.example:443/client.json'],
    ['dot segments (not canonical)', 'https://tool.example/a/../client.json'],
    ['not a URL', 'tool.example/client.json'],
    ['an overlong URL', `https://tool.example/${'a'.repeat(2_100)}`],
  ])('refuses %s', (_kind, clientId) => {
    expect(reasonOf(() => parseCimdClientId(clientId))).toBe('invalid_client_id_url');
  });
});

describe('admitCimdClientId', () => {
  const exact = CimdConfigSchema.parse({
    policy: CimdTrustPolicy.ALLOWLIST,
    allowedClients: ['https://tool.example/client.json'],
  });
  const host = CimdConfigSchema.parse({ policy: CimdTrustPolicy.ALLOWLIST, allowedClients: ['tool.example'] });

  it('admits an exactly allowlisted URL (positive control)', () => {
    expect(reasonOf(() => admitCimdClientId('https://tool.example/client.json', exact))).toBeUndefined();
  });

  it('refuses another document on the host of an exact entry', () => {
    expect(reasonOf(() => admitCimdClientId('https://tool.example/other.json', exact))).toBe('not_allowlisted');
  });

  it('admits any document of an allowlisted bare host (positive control)', () => {
    expect(reasonOf(() => admitCimdClientId('https://tool.example/other.json', host))).toBeUndefined();
  });

  it('refuses a host that merely ends with an allowlisted host', () => {
    expect(reasonOf(() => admitCimdClientId('https://eviltool.example/client.json', host))).toBe('not_allowlisted');
    expect(reasonOf(() => admitCimdClientId('https://tool.example.evil.test/client.json', host))).toBe(
      'not_allowlisted',
    );
  });

  it('refuses everything when DISABLED, before looking at the URL', () => {
    const disabled = CimdConfigSchema.parse({});
    expect(reasonOf(() => admitCimdClientId('https://tool.example/client.json', disabled))).toBe('cimd_disabled');
    expect(reasonOf(() => admitCimdClientId('not a url', disabled))).toBe('cimd_disabled');
  });

  it('admits any valid URL when OPEN (positive control) and still refuses an invalid one', () => {
    const open = CimdConfigSchema.parse({ policy: CimdTrustPolicy.OPEN });
    expect(reasonOf(() => admitCimdClientId('https://anyone.example/client.json', open))).toBeUndefined();
    expect(reasonOf(() => admitCimdClientId('http://anyone.example/client.json', open))).toBe('invalid_client_id_url');
  });
});
