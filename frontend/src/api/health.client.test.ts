import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchHealth, HealthError, parseHealthBody } from './health.client';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('parseHealthBody', () => {
  it('accepts status with and without version', () => {
    expect(parseHealthBody({ data: { status: 'ok', version: '2.0.0' } })).toEqual({ status: 'ok', version: '2.0.0' });
    expect(parseHealthBody({ data: { status: 'degraded' } })).toEqual({ status: 'degraded' });
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['no data', { status: 'ok' }],
    ['data not an object', { data: 'ok' }],
    ['missing status', { data: { version: '1' } }],
    ['empty status', { data: { status: '' } }],
    ['non-string status', { data: { status: 1 } }],
    ['non-string version', { data: { status: 'ok', version: 2 } }],
  ])('rejects %s', (_label, body) => {
    expect(parseHealthBody(body)).toBeUndefined();
  });
});

describe('fetchHealth', () => {
  it('rejects with a HealthError carrying the HTTP status on a non-2xx answer', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response('{}', { status: 404 })));
    const error = await fetchHealth().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HealthError);
    expect((error as HealthError).httpStatus).toBe(404);
  });

  it('rejects with a HealthError when the network fails', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(fetchHealth()).rejects.toThrow(/could not be reached/);
  });

  it('lets an abort through unchanged', async () => {
    const controller = new AbortController();
    const abortError = new DOMException('aborted', 'AbortError');
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => {
        controller.abort();
        return Promise.reject(abortError);
      }),
    );
    await expect(fetchHealth(controller.signal)).rejects.toBe(abortError);
  });
});
