import { describe, expect, it } from 'vitest';
import { isNavigableRedirect, readAuthorizationRequest } from './authorization-request';

describe('readAuthorizationRequest', () => {
  it('keeps the contract parameters and drops the others', () => {
    expect(
      readAuthorizationRequest(
        '?response_type=code&client_id=a&redirect_uri=https%3A%2F%2Fa.example%2Fcb&prompt=login&scope=openid',
      ),
    ).toEqual({
      ok: true,
      request: { response_type: 'code', client_id: 'a', redirect_uri: 'https://a.example/cb', scope: 'openid' },
    });
  });

  it('refuses a repeated parameter', () => {
    expect(readAuthorizationRequest('?response_type=code&client_id=a&client_id=b&redirect_uri=x')).toEqual({
      ok: false,
      message: 'The parameter “client_id” appears more than once.',
    });
  });

  it('names the missing required parameters', () => {
    expect(readAuthorizationRequest('?response_type=code')).toEqual({
      ok: false,
      message: 'The request is missing “client_id”, “redirect_uri”.',
    });
  });
});

describe('isNavigableRedirect', () => {
  it.each(['https://tool.example/cb?code=1', 'http://127.0.0.1:8080/cb', 'com.example.app:/oauth2redirect'])(
    'accepts %s',
    (url) => {
      expect(isNavigableRedirect(url)).toBe(true);
    },
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,hi',
    'vbscript:x',
    'file:///etc/passwd',
    '/relative',
    '',
  ])('refuses %s', (url) => {
    expect(isNavigableRedirect(url)).toBe(false);
  });
});
