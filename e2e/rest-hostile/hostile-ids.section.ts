import { checkControl, checkCountUnchanged, checkRefusal, checkUnchanged } from '../support/expectations.js';
import {
  createOrganization,
  createTodo,
  listTodoIds,
  readTodo,
  signUp,
  todosPath,
  uniqueMarker,
} from '../support/fixtures.js';
import { describeResponse, errorOf } from '../support/responses.js';
import type { ScenarioSection } from './scenario-context.js';

/**
 * Path segments an attacker puts where an id belongs, already percent-encoded as sent. fetch would
 * resolve a literal or `%2E%2E` dot segment before sending, so those go through `requestVerbatim`.
 */
const HOSTILE_SEGMENTS: readonly [string, string][] = [
  ['an encoded ../ traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['a double-encoded traversal', '%252e%252e%252f%252e%252e%252fetc'],
  ['a 4096-character id', 'a'.repeat(4096)],
  ['a SQL tautology', encodeURIComponent("1' OR '1'='1")],
  ['a SQL statement', encodeURIComponent('1; DROP TABLE r_todos; --')],
  ['an operator object', encodeURIComponent('{"$gt":""}')],
  ['a non-ASCII id', encodeURIComponent('🦄-ünïcode')],
];

/** Raw paths (relative to the todos collection) sent without client-side normalization. */
const VERBATIM_SUFFIXES: readonly [string, string][] = [
  ['a literal .. segment', '/..'],
  ['a literal ../ traversal to another endpoint', '/../../../../health'],
  ['a literal encoded-dot traversal', '/%2e%2e/%2e%2e/members'],
];

/**
 * H: hostile ids in the path. Each must get a structured 404 (a NUL byte: 400 input_invalid; never a 5xx), on
 * reads and deletes alike, and the organization's rows must be intact afterwards.
 */
export const hostileIdsSection: ScenarioSection = {
  title: 'H: hostile ids in the path',
  async run({ client, recorder }) {
    const owner = await signUp(client, 'ids-owner');
    const org = await createOrganization(client, owner, uniqueMarker('e2e ids'));
    const base = todosPath(org);
    const todo = await createTodo(client, owner, org, { title: uniqueMarker('id target') });

    const control = await client.get(`${base}/${todo._id}`, { token: owner.token });
    checkControl(recorder, 'H-0 CONTROL the owner CAN read its todo by its real id', control, 200);
    const snapshot = await readTodo(client, owner, org, todo._id);
    const countBefore = (await listTodoIds(client, owner, org)).length;

    for (const [what, segment] of HOSTILE_SEGMENTS) {
      checkRefusal(
        recorder,
        `H-1 GET with ${what} as the todo id answers 404`,
        await client.get(`${base}/${segment}`, { token: owner.token }),
        { status: 404, code: 'NOT_FOUND' },
      );
      checkRefusal(
        recorder,
        `H-2 DELETE with ${what} as the todo id answers 404`,
        await client.delete(`${base}/${segment}`, { token: owner.token }),
        { status: 404, code: 'NOT_FOUND' },
      );
      checkRefusal(
        recorder,
        `H-3 GET with ${what} as the organization id answers 404`,
        await client.get(`/api/v1/organizations/${segment}/todos`, { token: owner.token }),
        {
          status: 404,
          code: 'NOT_FOUND',
        },
      );
    }
    for (const [what, suffix] of VERBATIM_SUFFIXES) {
      const res = await client.requestVerbatim('GET', `${base}${suffix}`, { token: owner.token });
      checkRefusal(recorder, `H-4 GET with ${what} answers 404`, res, { status: 404, code: 'NOT_FOUND' });
    }
    // A NUL decodes to text no record id (and no database) holds: refused as input_invalid before any route runs.
    const nulSegment = `${uniqueMarker('nul')}%00${uniqueMarker('id')}`;
    for (const [what, path] of [
      ['the todo id', `${base}/${nulSegment}`],
      ['the organization id', `/api/v1/organizations/${nulSegment}/todos`],
    ] as const) {
      checkRefusal(
        recorder,
        `H-8 GET with a NUL byte in ${what} answers 400 input_invalid naming (path)`,
        await client.get(path, { token: owner.token }),
        {
          status: 400,
          code: 'VALIDATION_FAILED',
          reason: 'input_invalid',
          problemPaths: ['(path)'],
          mustNotDisclose: nulSegment.split('%00'),
        },
      );
    }
    // A broken percent-encoding cannot name any record: a structured 400 or 404 is right, a 5xx is not.
    const broken = await client.requestVerbatim('GET', `${base}/%E0%A4%A`, { token: owner.token });
    recorder.check(
      'H-5 GET with a broken percent-encoding answers a structured 400/404',
      (broken.status === 400 || broken.status === 404) && errorOf(broken) !== undefined,
      describeResponse(broken),
    );

    checkUnchanged(
      recorder,
      'H-6 the todo is unchanged after the hostile ids',
      snapshot,
      await readTodo(client, owner, org, todo._id),
    );
    checkCountUnchanged(
      recorder,
      'H-7 the organization’s todo count is unchanged',
      countBefore,
      (await listTodoIds(client, owner, org)).length,
    );
  },
};
