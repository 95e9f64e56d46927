import { describe, expect, it } from 'vitest';
import { CimdDocumentSchema, isSafeRedirectUri } from './cimd-document.schema.js';

const valid = {
  client_id: 'https://tool.example/client.json',
  client_name: 'Customer workspace tool',
  redirect_uris: ['https://tool.example/callback'],
  token_endpoint_auth_method: 'none',
};

function problemPaths(document: unknown): string[] {
  const result = CimdDocumentSchema.safeParse(document);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('isSafeRedirectUri', () => {
  it.each([
    'https://tool.example/callback',
    'https://tool.example:8443/cb?x=1',
    'http://127.0.0.1:53123/callback',
    'http://[::1]:53123/callback',
    'http://localhost:8080/callback',
  ])('accepts %s (positive control)', (uri) => {
    expect(isSafeRedirectUri(uri)).toBe(true);
  });

  it.each([
    ['http to a non-loopback host', 'http://tool.example/callback'],
    ['http to a private address', 'http://10.0.0.5/callback'],
    ['credentials', 'https://user:pass@tool.example/callback'],
    ['a fragment', 'https://tool.example/callback#frag'],
    ['an empty fragment', 'https://tool.example/callback#'],
    ['a custom scheme', 'com.example.app:/callback'],
    ['javascript:', 'javascript:alert(1)'],
    ['a relative reference', '/callback'],
    ['an overlong URL', `https://tool.example/${'a'.repeat(2_100)}`],
  ])('refuses %s', (_kind, uri) => {
    expect(isSafeRedirectUri(uri)).toBe(false);
  });
});

describe('CimdDocumentSchema', () => {
  it('accepts the guide’s example document (positive control)', () => {
    expect(CimdDocumentSchema.safeParse(valid).success).toBe(true);
  });

  it('accepts a document without token_endpoint_auth_method and with unknown members', () => {
    const { token_endpoint_auth_method: _omitted, ...rest } = valid;
    expect(
      CimdDocumentSchema.safeParse({ ...rest, contacts: ['ops@tool.example'], grant_types: ['authorization_code'] })
        .success,
    ).toBe(true);
  });

  it('refuses an empty redirect_uris', () => {
    expect(problemPaths({ ...valid, redirect_uris: [] })).toEqual(['redirect_uris']);
  });

  it('refuses a missing client_name', () => {
    const { client_name: _omitted, ...rest } = valid;
    expect(problemPaths(rest)).toEqual(['client_name']);
  });

  it('refuses an overlong client_name', () => {
    expect(problemPaths({ ...valid, client_name: 'x'.repeat(201) })).toEqual(['client_name']);
  });

  it('refuses a client_name with bidi or control characters', () => {
    expect(problemPaths({ ...valid, client_name: 'Tool\u202Eloot' })).toEqual(['client_name']);
    expect(problemPaths({ ...valid, client_name: 'Tool\nname' })).toEqual(['client_name']);
  });

  it('refuses an unsafe redirect among safe ones', () => {
    expect(problemPaths({ ...valid, redirect_uris: ['https://tool.example/cb', 'http://tool.example/cb'] })).toEqual([
      'redirect_uris.1',
    ]);
  });

  it('refuses grant types other than authorization_code', () => {
    expect(problemPaths({ ...valid, grant_types: ['authorization_code', 'client_credentials'] })).toEqual([
      'grant_types.1',
    ]);
  });

  it('refuses a document that carries a client secret', () => {
    expect(problemPaths({ ...valid, client_secret: 's3cret' })).toEqual(['client_secret']);
  });

  it('refuses a non-https client_uri or logo_uri', () => {
    expect(problemPaths({ ...valid, client_uri: 'http://tool.example/', logo_uri: 'javascript:alert(1)' })).toEqual([
      'client_uri',
      'logo_uri',
    ]);
  });
});
