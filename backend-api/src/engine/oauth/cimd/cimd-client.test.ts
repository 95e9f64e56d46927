import { describe, expect, it } from 'vitest';
import { assertRedirectAllowed, type CimdClient } from './cimd-client.js';
import { CimdResolutionError } from './cimd.errors.js';

const client: CimdClient = {
  clientId: 'https://tool.example/client.json',
  clientName: 'Tool',
  redirectUris: ['https://tool.example/callback', 'http://127.0.0.1:53123/cb'],
};

describe('assertRedirectAllowed', () => {
  it('accepts each registered redirect exactly as written (positive control)', () => {
    expect(() => assertRedirectAllowed(client, 'https://tool.example/callback')).not.toThrow();
    expect(() => assertRedirectAllowed(client, 'http://127.0.0.1:53123/cb')).not.toThrow();
  });

  it.each([
    ['a longer path under the registered one', 'https://tool.example/callback/extra'],
    ['a prefix of the registered one', 'https://tool.example/call'],
    ['another path on the same origin', 'https://tool.example/other'],
    ['an added query', 'https://tool.example/callback?next=/admin'],
    ['a trailing slash', 'https://tool.example/callback/'],
    ['a different case', 'https://tool.example/Callback'],
    ['another origin', 'https://evil.example/callback'],
    ['another loopback port', 'http://127.0.0.1:1/cb'],
  ])('refuses %s', (_kind, redirectUri) => {
    expect(() => assertRedirectAllowed(client, redirectUri)).toThrow(CimdResolutionError);
    try {
      assertRedirectAllowed(client, redirectUri);
    } catch (error) {
      expect((error as CimdResolutionError).reason).toBe('redirect_uri_not_registered');
      expect((error as CimdResolutionError).message).not.toContain(redirectUri);
    }
  });
});
