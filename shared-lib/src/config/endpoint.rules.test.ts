import { describe, expect, it } from 'vitest';
import { baseConfig, problemsOf } from './config.test-helpers.js';
import { validateSaaSConfig } from './validate-saas-config.js';

function withEndpoints(endPoints: Record<string, unknown>, frontendServices: Record<string, unknown> = {}) {
  return { ...baseConfig(), runtime: { endPoints }, frontendServices };
}

const backendApi = { publicUrl: 'http://localhost:4241' };

describe('runtime.endPoints and frontendServices', () => {
  it('accepts a backend endpoint and one frontend service with its endpoint', () => {
    expect(
      problemsOf(
        withEndpoints({ main_backend_api: backendApi, web: { publicUrl: 'http://localhost:4242' } }, { web: {} }),
      ),
    ).toEqual([]);
  });

  it('refuses a frontend endpoint without a matching frontend service', () => {
    expect(
      problemsOf(withEndpoints({ main_backend_api: backendApi, web: { publicUrl: 'http://localhost:4242' } })),
    ).toEqual([
      'runtime.endPoints.web: "web" is neither main_backend_api nor a frontend service; add frontendServices.web or fix the name',
    ]);
  });

  it('refuses a frontend service without an endpoint', () => {
    expect(problemsOf(withEndpoints({ main_backend_api: backendApi }, { web: {} }))).toEqual([
      'frontendServices.web: frontend service "web" has no public address; add runtime.endPoints.web.publicUrl',
    ]);
  });

  it('refuses two default frontend services', () => {
    const config = withEndpoints(
      { a: { publicUrl: 'http://a.localhost' }, b: { publicUrl: 'http://b.localhost' } },
      { a: { isDefault: true }, b: { isDefault: true } },
    );
    expect(problemsOf(config)).toEqual([
      'frontendServices.b.isDefault: only one frontend service can be the default and "a" already is; remove isDefault here',
    ]);
  });

  it.each([
    ['localhost:4241', 'must be an absolute http:// or https:// URL such as https://app.example.com'],
    ['ftp://files.example', 'must be an absolute http:// or https:// URL such as https://app.example.com'],
    ['https://app.example/?tenant=1', 'remove the query string and fragment; a public URL is a base address'],
  ])('refuses the public URL %s', (publicUrl, message) => {
    expect(problemsOf(withEndpoints({ main_backend_api: { publicUrl } }))).toEqual([
      `runtime.endPoints.main_backend_api.publicUrl: ${message}`,
    ]);
  });

  it('stores public URLs without a trailing slash', () => {
    const result = validateSaaSConfig(withEndpoints({ main_backend_api: { publicUrl: 'http://localhost:4241/' } }));
    expect(result.ok && result.config.runtime.endPoints.main_backend_api).toEqual({
      publicUrl: 'http://localhost:4241',
    });
  });

  it('requires https endpoints in PRODUCTION', () => {
    const config = {
      ...withEndpoints({ main_backend_api: backendApi }),
      application: { name: 'x', environment: 'PRODUCTION' },
    };
    expect(problemsOf(config)).toEqual([
      'runtime.endPoints.main_backend_api.publicUrl: a PRODUCTION endpoint must use https; change the URL or the application environment',
    ]);
  });
});
