import { checkControl, checkCountUnchanged, checkRefusal } from '../support/expectations.js';
import { createOrganization, listTodoIds, signUp, todosPath, uniqueMarker } from '../support/fixtures.js';
import type { HttpResult } from '../support/http-client.js';
import type { BearerToken } from '../support/bearer-token.js';
import type { ScenarioSection } from './scenario-context.js';

/**
 * A: credentials. The same request that works with the user's own token must get 401 with a
 * `WWW-Authenticate` challenge when the token is missing, tampered with, unsigned or not a token at all;
 * a refused write must not have created anything.
 */
export const authenticationSection: ScenarioSection = {
  title: 'A: missing and tampered credentials',
  async run({ client, recorder }) {
    const user = await signUp(client, 'auth');
    const org = await createOrganization(client, user, uniqueMarker('e2e auth'));
    const base = todosPath(org);
    const challenge = (res: HttpResult) => res.headers.get('www-authenticate') ?? '';

    const control = await client.get(base, { token: user.token });
    checkControl(recorder, 'A-0 CONTROL the user’s own token lists the organization’s todos', control, 200);

    const missing = await client.get(base);
    checkRefusal(recorder, 'A-1 a missing token is refused (401 no_credential)', missing, {
      status: 401,
      code: 'UNAUTHENTICATED',
      reason: 'no_credential',
    });
    recorder.check(
      'A-1 the 401 carries a Bearer WWW-Authenticate challenge',
      /^Bearer\b/i.test(challenge(missing)),
      `WWW-Authenticate: ${challenge(missing) || '(absent)'}`,
    );

    const forgeries: [string, BearerToken | string][] = [
      [
        'A-2 a token whose subject was rewritten',
        user.token.withPayload((claims) => ({ ...claims, sub: 'someone-else' })),
      ],
      [
        'A-3 a token whose authorization version was raised',
        user.token.withPayload((claims) => ({ ...claims, av: Number(claims['av'] ?? 0) + 1 })),
      ],
      ['A-4 a token with a broken signature', user.token.withBrokenSignature()],
      ['A-5 an unsigned (alg none) token', user.token.asUnsigned()],
      ['A-6 a bearer value that is not a token', 'not-a-jwt'],
    ];
    for (const [what, token] of forgeries) {
      const res =
        typeof token === 'string'
          ? await client.get(base, { authorization: `Bearer ${token}` })
          : await client.get(base, { token });
      checkRefusal(recorder, `${what} is refused (401 credential_invalid)`, res, {
        status: 401,
        code: 'UNAUTHENTICATED',
        reason: 'credential_invalid',
      });
      recorder.check(
        `${what.split(' ')[0]} the 401 carries a Bearer WWW-Authenticate challenge`,
        /^Bearer\b/i.test(challenge(res)),
        `WWW-Authenticate: ${challenge(res) || '(absent)'}`,
      );
    }
    const foreignScheme = await client.get(base, { authorization: 'Basic ZTJlOnByb2Jl' });
    checkRefusal(recorder, 'A-7 an unknown authorization scheme is refused, not treated as anonymous', foreignScheme, {
      status: 401,
      code: 'UNAUTHENTICATED',
    });

    // A write without a credential: refused, and nothing stored (read back with the real token).
    const before = (await listTodoIds(client, user, org)).length;
    const title = uniqueMarker('anonymous write');
    const anonymousWrite = await client.post(base, { title });
    checkRefusal(recorder, 'A-8 a create without a token is refused (401)', anonymousWrite, {
      status: 401,
      code: 'UNAUTHENTICATED',
      mustNotDisclose: [title],
    });
    const forgedWrite = await client.post(base, { title }, { token: user.token.withBrokenSignature() });
    checkRefusal(recorder, 'A-9 a create with a forged token is refused (401)', forgedWrite, {
      status: 401,
      code: 'UNAUTHENTICATED',
      mustNotDisclose: [title],
    });
    checkCountUnchanged(
      recorder,
      'A-10 no record was created by the refused writes',
      before,
      (await listTodoIds(client, user, org)).length,
    );
  },
};
