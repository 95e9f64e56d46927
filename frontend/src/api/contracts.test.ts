import { OAuthAuthorizeResponseSchema, OAuthConsentGrantSchema } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { AuthorizeResponseSchema, ConsentGrantListSchema } from './contracts';

// The browser bundle re-states a few shared contracts (see contracts.ts); these samples must be judged alike by both.
const prompt = {
  kind: 'consent',
  consent_token: 't',
  client: { client_id: 'c', client_name: 'Example MCP Tool' },
  resource: 'http://localhost:4241/api/v1/mcp',
  scopes: ['openid'],
  expires_in: 600,
};
const grant = {
  _id: 'g1',
  clientId: 'c',
  clientName: 'Example MCP Tool',
  resource: 'http://localhost:4241/api/v1/mcp',
  scopes: ['openid'],
  expiresAt: '2031-05-04T10:00:00.000Z',
};

describe('frontend contracts agree with @wildo/shared-lib', () => {
  it.each([
    ['a consent prompt', prompt, true],
    ['a redirect', { kind: 'redirect', redirect_to: 'https://tool.example/cb?code=1' }, true],
    ['a prompt without resource', { ...prompt, resource: undefined }, false],
    ['a fractional expires_in', { ...prompt, expires_in: 1.5 }, false],
    ['an unknown kind', { kind: 'other' }, false],
  ])('authorize answer: %s', (_label, answer, valid) => {
    expect(OAuthAuthorizeResponseSchema.safeParse(answer).success).toBe(valid);
    expect(AuthorizeResponseSchema.safeParse({ data: answer }).success).toBe(valid);
  });

  it.each([
    ['a grant', grant, true],
    ['a grant with a local-time expiry', { ...grant, expiresAt: '2031-05-04 10:00' }, false],
    ['a grant without client id', { ...grant, clientId: '' }, false],
  ])('consent grant: %s', (_label, record, valid) => {
    expect(OAuthConsentGrantSchema.safeParse(record).success).toBe(valid);
    expect(ConsentGrantListSchema.safeParse({ data: [record], nextCursor: null }).success).toBe(valid);
  });
});
