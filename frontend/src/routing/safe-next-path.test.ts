import { describe, expect, it } from 'vitest';
import { loginPath, safeNextPath } from './safe-next-path';

const ORIGIN = 'https://app.example';

describe('safeNextPath', () => {
  it.each([
    ['/account/consents', '/account/consents'],
    ['/oauth/authorize?client_id=a&scope=openid%20profile', '/oauth/authorize?client_id=a&scope=openid%20profile'],
    ['/a/../b#frag', '/b#frag'],
  ])('keeps the same-origin path %s', (next, expected) => {
    expect(safeNextPath(next, ORIGIN)).toBe(expected);
  });

  it.each([
    null,
    '',
    'account',
    'https://evil.example/',
    'https://app.example/account',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\t/evil.example',
    'javascript:alert(1)',
  ])('refuses %s', (next) => {
    expect(safeNextPath(next, ORIGIN)).toBe('/');
  });
});

describe('loginPath', () => {
  it('encodes the return path as `next`', () => {
    const path = loginPath('/oauth/authorize?a=1&b=2');
    expect(path.startsWith('/login?next=')).toBe(true);
    expect(new URLSearchParams(path.slice('/login'.length)).get('next')).toBe('/oauth/authorize?a=1&b=2');
  });
});
