import { describe, expect, it } from 'vitest';
import { declaredFailure, failureFromBackendAnswer } from './declared-failures.js';

const failures = {
  'quote-expired': 'The quote has expired; ask for a new one.',
  'quote-mismatch': 'The quote was issued for another stay, dates or party.',
};
const BACKEND_TEXT = 'Quote Q-77 stale since 10:02 (db shard 4)';

describe('declaredFailure', () => {
  it('carries the declared code and description, nothing else', () => {
    const error = declaredFailure(failures, 'quote-expired');
    expect(error).toMatchObject({
      code: 'OPERATION_FAILED',
      status: 422,
      message: failures['quote-expired'],
      failure: { code: 'quote-expired', description: failures['quote-expired'] },
    });
  });

  it('turns a code the operation does not declare into an internal error (status only)', () => {
    for (const code of ['quote-lost', 'toString', '__proto__']) {
      const error = declaredFailure(failures, code);
      expect(error.code).toBe('INTERNAL');
      expect(error.failure).toBeUndefined();
    }
    expect(declaredFailure(undefined, 'quote-expired').code).toBe('INTERNAL');
  });
});

describe('failureFromBackendAnswer', () => {
  const namedIn = [
    { code: 'quote-expired', message: BACKEND_TEXT },
    { errorCode: 'quote-expired', detail: BACKEND_TEXT },
    { failure: 'quote-expired' },
    { error: 'quote-expired', error_description: BACKEND_TEXT },
    { error: { code: 'quote-expired', message: BACKEND_TEXT } },
    { errors: [{ code: 'quote-expired', message: BACKEND_TEXT }] },
    { errors: ['quote-expired'] },
    { type: 'https://agency.example/problems/quote-expired', title: BACKEND_TEXT },
    { type: 'quote-expired' },
    'quote-expired',
  ];

  for (const body of namedIn) {
    it(`maps a body naming a declared code (${JSON.stringify(body).slice(0, 60)}) to that failure`, () => {
      const error = failureFromBackendAnswer(failures, { status: 422, body });
      expect(error).toMatchObject({
        code: 'OPERATION_FAILED',
        failure: { code: 'quote-expired', description: failures['quote-expired'] },
      });
      expect(JSON.stringify({ message: error.message, failure: error.failure })).not.toContain('Q-77');
    });
  }

  it('answers anything else with the status only: unknown code, no body, text, undeclared operation', () => {
    const cases: [typeof failures | undefined, unknown][] = [
      [failures, { code: 'QUOTE-EXPIRED' }],
      [failures, { message: 'quote-expired' }],
      [failures, undefined],
      [failures, `<html>${BACKEND_TEXT}</html>`],
      [failures, { code: 42 }],
      [undefined, { code: 'quote-expired' }],
    ];
    for (const [declared, body] of cases) {
      const error = failureFromBackendAnswer(declared, { status: 503, body });
      expect(error).toMatchObject({
        code: 'UPSTREAM_FAILED',
        status: 502,
        upstreamStatus: 503,
        message: 'The backend answered with status 503.',
      });
      expect(error.failure).toBeUndefined();
    }
  });

  it('never treats an inherited property name as a declared code', () => {
    expect(failureFromBackendAnswer(failures, { status: 400, body: { code: 'constructor' } }).code).toBe(
      'UPSTREAM_FAILED',
    );
  });
});
