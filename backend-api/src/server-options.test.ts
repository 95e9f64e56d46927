import { beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfiguration } from './engine/config/index.js';
import { readGeneratedRuntime } from './testing/generated-runtime.js';
import { DEFAULT_PUBLIC_URL, resolvePublicUrls } from './server-options.js';

/** The committed runtime with other endpoint URLs. */
function withEndPoints(runtime: RuntimeConfiguration, backend: string, frontend: string): RuntimeConfiguration {
  return {
    ...runtime,
    runtime: {
      ...runtime.runtime,
      endPoints: { main_backend_api: { publicUrl: backend }, main_frontend: { publicUrl: frontend } },
    },
  } as RuntimeConfiguration;
}

describe('resolvePublicUrls', () => {
  let runtime: RuntimeConfiguration;
  beforeAll(async () => {
    runtime = await readGeneratedRuntime();
  });

  it('follows PORT in development when the configuration keeps the default URL (the frontend on the same origin too)', () => {
    expect(resolvePublicUrls(runtime, { PORT: 4399 }, false)).toEqual({
      publicUrl: 'http://localhost:4399',
      frontendUrl: 'http://localhost:4399',
      source: 'PORT',
    });
  });

  it('keeps the default for the default port, and for PORT=0 (the port is only known after listening)', () => {
    const kept = { publicUrl: DEFAULT_PUBLIC_URL, frontendUrl: DEFAULT_PUBLIC_URL, source: 'configuration' };
    expect(resolvePublicUrls(runtime, { PORT: 4241 }, false)).toEqual(kept);
    expect(resolvePublicUrls(runtime, { PORT: 0 }, false)).toEqual(kept);
  });

  it('does not follow PORT in production, where the configured URL is what clients use', () => {
    expect(resolvePublicUrls(runtime, { PORT: 4399 }, true).publicUrl).toBe(DEFAULT_PUBLIC_URL);
  });

  it('does not follow PORT when the configuration names another URL, nor move a frontend on another origin', () => {
    const configured = withEndPoints(runtime, 'https://api.todos.example.test', 'https://todos.example.test');
    expect(resolvePublicUrls(configured, { PORT: 4399 }, false)).toEqual({
      publicUrl: 'https://api.todos.example.test',
      frontendUrl: 'https://todos.example.test',
      source: 'configuration',
    });
  });

  it('lets WILDO_PUBLIC_URL win everywhere, production included; a frontend on the backend origin follows it', () => {
    for (const production of [false, true]) {
      expect(
        resolvePublicUrls(runtime, { PORT: 4399, WILDO_PUBLIC_URL: 'https://todos.example.test/' }, production),
      ).toEqual({
        publicUrl: 'https://todos.example.test',
        frontendUrl: 'https://todos.example.test',
        source: 'WILDO_PUBLIC_URL',
      });
    }
    const split = withEndPoints(runtime, 'https://api.todos.example.test', 'https://todos.example.test');
    expect(
      resolvePublicUrls(split, { PORT: 4241, WILDO_PUBLIC_URL: 'https://api2.todos.example.test' }, true).frontendUrl,
    ).toBe('https://todos.example.test');
  });
});
