import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, requestJson } from './api.client';
import { AnyBodySchema, DecisionResponseSchema } from './contracts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function answer(body: string, status: number, headers: Record<string, string> = {}) {
  vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(body, { status, headers })));
}

describe('requestJson', () => {
  it('keeps the envelope: code, message, reason, problems, request id and Retry-After', async () => {
    answer(
      JSON.stringify({
        error: {
          code: 'RATE_LIMITED',
          message: 'Slow down.',
          reason: 'rate_limit_exceeded',
          problems: [{ path: 'email', expected: 'string' }, { bad: 1 }],
          requestId: 'r1',
        },
      }),
      429,
      { 'Retry-After': '30' },
    );
    const error = (await requestJson('/x', { schema: AnyBodySchema }).catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: 'Slow down.' });
    expect(error.details).toEqual({
      reason: 'rate_limit_exceeded',
      problems: [{ path: 'email', expected: 'string' }],
      requestId: 'r1',
      retryAfterSeconds: 30,
    });
  });

  it('describes an answer without an envelope by its status', async () => {
    answer('<html>bad gateway</html>', 502);
    await expect(requestJson('/x', { schema: AnyBodySchema })).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'The server answered HTTP 502.',
    });
  });

  it('refuses a success body that breaks the contract', async () => {
    answer(JSON.stringify({ data: { redirect_to: 42 } }), 200);
    await expect(requestJson('/x', { schema: DecisionResponseSchema })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('reports an unreachable server as a network failure', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(requestJson('/x', { schema: AnyBodySchema })).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
  });

  it('sends JSON with the bearer token and no token when signed out', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockImplementation(async () => new Response('{"data":{"redirect_to":"https://a.example"}}'));
    vi.stubGlobal('fetch', fetchMock);

    await requestJson('/x', { method: 'POST', body: { a: 1 }, accessToken: 'tok', schema: DecisionResponseSchema });
    await requestJson('/y', { schema: DecisionResponseSchema });

    expect(fetchMock.mock.calls[0]![1]).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer tok' },
    });
    expect(fetchMock.mock.calls[1]![1]!.headers).toEqual({ Accept: 'application/json' });
  });
});
