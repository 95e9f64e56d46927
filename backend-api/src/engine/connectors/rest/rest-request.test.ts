import { describe, expect, it } from 'vitest';
import { FrameworkError } from '../../errors/index.js';
import { restConnector } from '../connectors.js';
import type { RestOperationBinding } from '../connector.types.js';
import type { BindingProblem } from '../response-mapping.js';
import { compileRestRequest, type RestCallScope } from './rest-request.js';

const agency = restConnector({ name: 'agency', baseUrl: '${AGENCY_URL}', headers: { 'x-api-key': '${AGENCY_KEY}' } });
const env: Record<string, string> = { AGENCY_URL: 'https://api.agency.example/base/', AGENCY_KEY: 'k-123' };
const scope = (token?: string): RestCallScope => ({ env: (name) => env[name], callerToken: () => token });

function plan(binding: Omit<RestOperationBinding, 'connector' | 'response'>) {
  const problems: BindingProblem[] = [];
  const compiled = compileRestRequest({ connector: agency, response: { map: {} }, ...binding }, problems);
  return { compiled, problems };
}

function refusal(run: () => unknown): FrameworkError {
  try {
    run();
  } catch (error) {
    if (error instanceof FrameworkError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a REST binding builds its request', () => {
  it('encodes input placeholders in the path and sends the rest of a GET as the query', () => {
    const { compiled, problems } = plan({ method: 'GET', path: '/v1/stays/{stayId}' });
    expect(problems).toEqual([]);
    const request = compiled.build({ stayId: 'a b/c?d', date: '2027-05-12', tags: ['pets', 'family'] }, scope());
    expect(request.url).toBe(
      'https://api.agency.example/base/v1/stays/a%20b%2Fc%3Fd?date=2027-05-12&tags=pets&tags=family',
    );
    expect(request.headers).toMatchObject({ 'x-api-key': 'k-123', accept: 'application/json' });
    expect(request.body).toBeUndefined();
  });

  it.each(['..', '.', ''])('refuses the path value %j, which would leave the declared path', (value) => {
    const { compiled } = plan({ method: 'GET', path: '/v1/stays/{stayId}/photos' });
    expect(refusal(() => compiled.build({ stayId: value }, scope()))).toMatchObject({
      reason: 'input_invalid',
      problems: [{ path: 'stayId' }],
    });
  });

  it('sends the input the path does not use as the JSON body of a POST, or the body template', () => {
    const byDefault = plan({ method: 'POST', path: '/v1/bookings/{bookingId}/cancel' }).compiled;
    expect(JSON.parse(byDefault.build({ bookingId: 'B-1', reason: 'ill' }, scope()).body ?? '')).toEqual({
      reason: 'ill',
    });
    const templated = plan({
      method: 'POST',
      path: '/v1/quotes',
      body: {
        stay: '{stayId}',
        window: { from: '{dates.from}', to: '{dates.to}' },
        note: 'for {guest}',
        pets: '{pets}',
      },
    }).compiled;
    const body = JSON.parse(
      templated.build({ stayId: 'ws-1', dates: { from: '2027-05-12', to: '2027-05-15' }, guest: 'Ana' }, scope())
        .body ?? '',
    );
    // A whole placeholder keeps the value's type; an absent optional input leaves its place out.
    expect(body).toEqual({ stay: 'ws-1', window: { from: '2027-05-12', to: '2027-05-15' }, note: 'for Ana' });
  });

  it("forwards the caller's delegated token in a header only, and refuses a call without one before anything is sent", () => {
    const { compiled } = plan({
      method: 'POST',
      path: '/v1/bookings',
      headers: { Authorization: 'Bearer ${caller.accessToken}' },
    });
    expect(compiled.forwardsCallerToken).toBe(true);
    expect(compiled.build({}, scope('delegated-abc')).headers.authorization).toBe('Bearer delegated-abc');
    expect(refusal(() => compiled.build({}, scope()))).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'principal_not_allowed',
    });
  });

  it('answers 503 (never a 500) when an environment variable is unset or the base URL is not http(s)', () => {
    const { compiled } = plan({ method: 'GET', path: '/v1/ping' });
    const unset: RestCallScope = { env: () => undefined, callerToken: () => undefined };
    expect(refusal(() => compiled.build({}, unset))).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const ftp: RestCallScope = {
      env: (name) => (name === 'AGENCY_URL' ? 'ftp://files.example' : 'k'),
      callerToken: () => undefined,
    };
    expect(refusal(() => compiled.build({}, ftp))).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('refuses a header value with a line break', () => {
    const { compiled } = plan({ method: 'GET', path: '/v1/ping', headers: { 'x-guest': '{guest}' } });
    expect(refusal(() => compiled.build({ guest: 'a\r\nx-admin: 1' }, scope()))).toMatchObject({
      reason: 'input_invalid',
      problems: [{ path: 'x-guest' }],
    });
  });

  it('reports declaration mistakes: the token outside headers, transport headers, a GET body, unknown references', () => {
    const { problems } = plan({
      method: 'GET',
      path: 'v1/{id}?key=${caller.accessToken}',
      query: { token: '${caller.accessToken}', env: '${HOME}' },
      body: { a: 1 },
      headers: { Host: 'evil.example', 'x-ok': '${caller.password}' },
    });
    expect(problems.map((p) => p.path).sort()).toEqual(
      ['body', 'headers.Host', 'headers.x-ok', 'path', 'path', 'query.env', 'query.token'].sort(),
    );
  });
});
