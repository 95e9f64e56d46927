import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BearerToken } from './bearer-token.js';
import { createCheckRecorder, exitCodeOf } from './check-recorder.js';
import { createHttpClient, type HttpResult } from './http-client.js';
import { refusalMismatch } from './responses.js';
import { stackAnswers } from './script-entry.js';

// The scenario is only as good as its ability to fail: these prove the helpers do notice what they look for.

function result(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { status, headers: new Headers(headers), body, text: JSON.stringify(body) };
}

const notFound = (extra: Record<string, unknown> = {}) =>
  result(404, { error: { code: 'NOT_FOUND', message: 'The record was not found.', requestId: 'r1', ...extra } });

describe('refusalMismatch', () => {
  it('accepts the expected refusal', () => {
    expect(
      refusalMismatch(notFound(), { status: 404, code: 'NOT_FOUND', mustNotDisclose: ['secret'] }),
    ).toBeUndefined();
  });

  it('names a wrong status, code or reason', () => {
    const detail = refusalMismatch(result(500, { error: { code: 'INTERNAL', message: 'x' } }), {
      status: 404,
      code: 'NOT_FOUND',
      reason: 'role_refused',
    });
    expect(detail).toContain('expected status 404');
    expect(detail).toContain('expected code NOT_FOUND');
    expect(detail).toContain('expected reason role_refused');
  });

  it('notices a forbidden value in the body or the headers, case-insensitively', () => {
    expect(
      refusalMismatch(notFound({ message: 'No todo "A Secret Plan"' }), {
        status: 404,
        code: 'NOT_FOUND',
        mustNotDisclose: ['a secret plan'],
      }),
    ).toContain('1 forbidden value');
    const inHeader = { ...notFound(), headers: new Headers({ 'x-debug': 'undeclaredKey_1' }) };
    expect(
      refusalMismatch(inHeader, { status: 404, code: 'NOT_FOUND', mustNotDisclose: ['undeclaredKey_1'] }),
    ).toContain('1 forbidden value');
  });

  it('requires every expected problem path, and accepts a refusal that names them all', () => {
    const invalid = result(400, {
      error: { code: 'VALIDATION_FAILED', message: 'x', problems: [{ path: 'title', expected: 'string' }] },
    });
    expect(
      refusalMismatch(invalid, { status: 400, code: 'VALIDATION_FAILED', problemPaths: ['title', 'company'] }),
    ).toContain('1 more path');
    expect(
      refusalMismatch(invalid, { status: 400, code: 'VALIDATION_FAILED', problemPaths: ['title'] }),
    ).toBeUndefined();
  });

  it('treats a success body as a mismatch for a refusal', () => {
    expect(
      refusalMismatch(result(200, { data: { _id: 'x', version: 1 } }), { status: 404, code: 'NOT_FOUND' }),
    ).toContain('status 200');
  });
});

describe('BearerToken', () => {
  const token = new BearerToken('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSIsImF2IjoxfQ.c2lnbmF0dXJl');

  it('never prints its value', () => {
    // oxlint-disable-next-line restrict-template-expressions -- interpolating the token is what this test checks.
    for (const shown of [String(token), `${token}`, JSON.stringify({ token }), inspect({ token })])
      expect(shown).not.toContain('eyJ');
  });

  it('forges copies that differ from the original', () => {
    const forged = token.withPayload((claims) => ({ ...claims, sub: 'someone-else' }));
    expect(forged.reveal().split('.')[1]).not.toBe(token.reveal().split('.')[1]);
    expect(token.withBrokenSignature().reveal().split('.')[2]).not.toBe(token.reveal().split('.')[2]);
    expect(
      JSON.parse(Buffer.from(token.asUnsigned().reveal().split('.')[0] ?? '', 'base64url').toString('utf8')),
    ).toMatchObject({ alg: 'none' });
  });
});

describe('check recorder', () => {
  it('prints PASS/FAIL lines, counts them and fails a run with a failure or without checks', () => {
    const lines: string[] = [];
    const recorder = createCheckRecorder((line) => lines.push(line));
    recorder.check('one', true);
    recorder.check('two', false, 'why');
    const summary = recorder.summarize();
    expect(lines).toContain('PASS one');
    expect(lines).toContain('FAIL two (why)');
    expect(summary).toMatchObject({ passed: 1, failed: 1 });
    expect(exitCodeOf(summary)).toBe(1);
    expect(exitCodeOf({ passed: 3, failed: 0 })).toBe(0);
    expect(exitCodeOf({ passed: 0, failed: 0 })).toBe(1);
  });
});

describe('stackAnswers', () => {
  const serve = async (status: number) => {
    const server = createServer((_req, res) => res.writeHead(status).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };

  it('passes a stack whose health answers 200, adding no check', async () => {
    const { server, url } = await serve(200);
    try {
      const recorder = createCheckRecorder(() => {});
      expect(await stackAnswers(createHttpClient(url), recorder)).toBe(true);
      expect(recorder.results).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('fails one check for a health answer other than 200, and for a stack that does not answer', async () => {
    const { server, url } = await serve(503);
    const recorder = createCheckRecorder(() => {});
    try {
      expect(await stackAnswers(createHttpClient(url), recorder)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // The same port, closed now: the connection is refused.
    expect(await stackAnswers(createHttpClient(url), recorder)).toBe(false);
    expect(recorder.results).toEqual([
      { label: 'stack answers GET /api/v1/health with 200', passed: false, detail: 'status 503' },
      {
        label: 'stack answers GET /api/v1/health with 200',
        passed: false,
        detail: expect.stringMatching(/fetch failed/),
      },
    ]);
  });
});
