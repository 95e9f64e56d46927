import { checkControl, checkCountUnchanged, checkRefusal, checkUnchanged } from '../support/expectations.js';
import {
  createOrganization,
  createTodo,
  listTodoIds,
  readTodo,
  signUp,
  todosPath,
  uniqueMarker,
  type ScenarioUser,
} from '../support/fixtures.js';
import type { HttpClient, HttpResult } from '../support/http-client.js';
import { nextCursorOf, recordOf, recordsOf, type ExpectedRefusal } from '../support/responses.js';
import type { CheckRecorder } from '../support/check-recorder.js';
import type { ScenarioSection } from './scenario-context.js';

/** A hostile write and the refusal it must get. */
interface WriteProbe {
  label: string;
  send(): Promise<HttpResult>;
  expected: ExpectedRefusal;
}

/**
 * I, U, S, Q, K: hostile input. Each probe's call shape is first shown to succeed with well-formed input;
 * each refusal must carry a code, name the offending field or parameter when its name is a plain identifier,
 * never echo a submitted value or a name that is not one, and (for writes) must leave the organization's
 * record count where it was, as its owner reads it back.
 */
export const hostileInputSection: ScenarioSection = {
  title: 'I/U/S/Q/K: hostile input',
  async run({ client, recorder }) {
    const owner = await signUp(client, 'input-owner');
    const org = await createOrganization(client, owner, uniqueMarker('e2e input'));
    const base = todosPath(org);
    await createProbes(client, recorder, owner, org, base);
    await updateAndSearchProbes(client, recorder, owner, org, base);
    await queryProbes(client, recorder, owner, org, base);
  },
};

/**
 * Probe markers: undeclared keys that are plain identifiers (named by refusals), one that is not (never repeated),
 * and values only the probe knows (never repeated).
 */
function probeMarkers() {
  const tag = uniqueMarker('m').slice(2);
  return {
    key: `undeclaredKey_${tag}`,
    nestedKey: `nestedKey_${tag}`,
    hiddenKey: `undeclared key <${tag}>`,
    value: `smuggled-${tag}`,
    tag,
  };
}

async function createProbes(
  client: HttpClient,
  recorder: CheckRecorder,
  owner: ScenarioUser,
  org: string,
  base: string,
): Promise<void> {
  const countBefore = (await listTodoIds(client, owner, org)).length;
  const control = await client.post(
    base,
    { title: uniqueMarker('well formed'), checklist: [{ label: 'step', done: false }] },
    { token: owner.token },
  );
  const countAfterControl = (await listTodoIds(client, owner, org)).length;
  checkControl(
    recorder,
    'I-0 CONTROL a well-formed create succeeds and adds one record',
    control,
    201,
    countAfterControl === countBefore + 1,
  );

  const m = probeMarkers();
  const invalid = { code: 'VALIDATION_FAILED', status: 400 } as const;
  const post = (json: unknown) => client.post(base, json, { token: owner.token });
  const postRaw = (rawBody: string, contentType: string) =>
    client.request('POST', base, { token: owner.token, rawBody, headers: { 'content-type': contentType } });
  const probes: WriteProbe[] = [
    {
      label: 'I-1 unknown top-level fields are refused, named when plain identifiers, their values unechoed',
      send: () => post({ title: `title ${m.tag}`, [m.key]: m.value, [m.hiddenKey]: m.value }),
      expected: {
        ...invalid,
        reason: 'input_invalid',
        problemPaths: [m.key, '(root)'],
        mustNotDisclose: [m.hiddenKey, m.value, `title ${m.tag}`],
      },
    },
    {
      label: 'I-2 an unknown nested field is refused, named, its value unechoed',
      send: () =>
        post({ title: 'nested probe', checklist: [{ label: `label ${m.tag}`, done: false, [m.nestedKey]: m.value }] }),
      expected: {
        ...invalid,
        reason: 'input_invalid',
        problemPaths: [`checklist[0].${m.nestedKey}`],
        mustNotDisclose: [m.value, `label ${m.tag}`],
      },
    },
    {
      label: 'I-3 system fields in a create (id, tenant, author) are refused as read-only',
      send: () =>
        post({
          title: 'smuggling probe',
          _id: `id-${m.tag}`,
          organizationId: `org-${m.tag}`,
          createdByUserId: `user-${m.tag}`,
        }),
      expected: { ...invalid, problemPaths: ['_id', 'organizationId', 'createdByUserId'], mustNotDisclose: [m.tag] },
    },
    {
      label: 'I-4 wrong types are refused without coercion or echo',
      send: () => post({ title: 918273645, priority: '3', status: `sneaky-${m.tag}` }),
      expected: { ...invalid, reason: 'input_invalid', mustNotDisclose: ['918273645', m.tag] },
    },
    {
      label: 'I-5 malformed JSON is refused (MALFORMED_JSON) without echo',
      send: () => postRaw(`{"title": "unclosed-${m.tag}`, 'application/json'),
      expected: { status: 400, code: 'MALFORMED_JSON', mustNotDisclose: [m.tag] },
    },
    {
      label: 'I-6 a 2 MB body is refused (413 PAYLOAD_TOO_LARGE)',
      send: () => post({ title: `huge ${m.tag}`, description: 'y'.repeat(2 * 1024 * 1024) }),
      expected: { status: 413, code: 'PAYLOAD_TOO_LARGE', mustNotDisclose: [m.tag, 'yyyyyyyy'] },
    },
    {
      label: 'I-7 a text/plain body is refused (415 UNSUPPORTED_MEDIA_TYPE)',
      send: () => postRaw(`title=plain-${m.tag}`, 'text/plain'),
      expected: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', mustNotDisclose: [m.tag] },
    },
    {
      label: 'I-8 a form-encoded body is refused (415 UNSUPPORTED_MEDIA_TYPE)',
      send: () => postRaw(`title=form-${m.tag}`, 'application/x-www-form-urlencoded'),
      expected: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', mustNotDisclose: [m.tag] },
    },
    {
      label: 'I-9 a NUL character in a field is refused as input_invalid naming the field, not a server error',
      send: () => post({ title: `nul \u0000 ${m.tag}` }),
      expected: { ...invalid, reason: 'input_invalid', problemPaths: ['title'], mustNotDisclose: [m.tag] },
    },
    {
      label: 'I-10 a lone surrogate in a nested field is refused as input_invalid naming the field',
      send: () =>
        postRaw(
          `{"title":"surrogate probe","checklist":[{"label":"\\ud800 ${m.tag}","done":false}]}`,
          'application/json',
        ),
      expected: { ...invalid, reason: 'input_invalid', problemPaths: ['checklist[0].label'], mustNotDisclose: [m.tag] },
    },
  ];
  for (const probe of probes) {
    const before = (await listTodoIds(client, owner, org)).length;
    checkRefusal(recorder, probe.label, await probe.send(), probe.expected);
    checkCountUnchanged(
      recorder,
      `${probe.label.split(' ')[0]} no record was created`,
      before,
      (await listTodoIds(client, owner, org)).length,
    );
  }
}

async function updateAndSearchProbes(
  client: HttpClient,
  recorder: CheckRecorder,
  owner: ScenarioUser,
  org: string,
  base: string,
): Promise<void> {
  const m = probeMarkers();
  const todo = await createTodo(client, owner, org, { title: uniqueMarker('update target') });
  const control = await client.put(`${base}/${todo._id}`, { priority: 2 }, { token: owner.token });
  checkControl(
    recorder,
    'U-0 CONTROL a well-formed update succeeds',
    control,
    200,
    recordOf(control)?.['priority'] === 2,
  );
  const snapshot = await readTodo(client, owner, org, todo._id);
  const unknown = await client.put(`${base}/${todo._id}`, { priority: 1, [m.key]: m.value }, { token: owner.token });
  checkRefusal(recorder, 'U-1 an update with an unknown field is refused, named, its value unechoed', unknown, {
    status: 400,
    code: 'VALIDATION_FAILED',
    problemPaths: [m.key],
    mustNotDisclose: [m.value],
  });
  const wrongType = await client.put(`${base}/${todo._id}`, { priority: `high-${m.tag}` }, { token: owner.token });
  checkRefusal(recorder, 'U-2 an update with a wrong type is refused without echo', wrongType, {
    status: 400,
    code: 'VALIDATION_FAILED',
    mustNotDisclose: [m.tag],
  });
  checkUnchanged(
    recorder,
    'U-3 the todo is unchanged after the refused updates',
    snapshot,
    await readTodo(client, owner, org, todo._id),
  );

  const searchControl = await client.post(`${base}/search`, { query: 'update target' }, { token: owner.token });
  checkControl(
    recorder,
    'S-0 CONTROL a well-formed search succeeds',
    searchControl,
    200,
    recordsOf(searchControl).some((r) => r._id === todo._id),
  );
  const searchUnknown = await client.post(
    `${base}/search`,
    { query: 'update target', [m.key]: m.value },
    { token: owner.token },
  );
  checkRefusal(recorder, 'S-1 a search with an unknown field is refused, named, its value unechoed', searchUnknown, {
    status: 400,
    code: 'VALIDATION_FAILED',
    problemPaths: [m.key],
    mustNotDisclose: [m.value],
  });
}

async function queryProbes(
  client: HttpClient,
  recorder: CheckRecorder,
  owner: ScenarioUser,
  org: string,
  base: string,
): Promise<void> {
  const m = probeMarkers();
  const get = (query: [string, string][]) => client.get(base, { token: owner.token, query });
  const control = await get([
    ['status', 'todo'],
    ['limit', '5'],
  ]);
  checkControl(recorder, 'Q-0 CONTROL declared query parameters are accepted', control, 200);
  const invalid = { status: 400, code: 'VALIDATION_FAILED' } as const;
  checkRefusal(
    recorder,
    'Q-1 undeclared query parameters are refused, named when plain identifiers, their values unechoed',
    await get([
      [m.key, m.value],
      ['$where', '1'],
    ]),
    {
      ...invalid,
      problemPaths: [m.key, '(query)'],
      mustNotDisclose: [m.value, '$where'],
    },
  );
  checkRefusal(
    recorder,
    'Q-2 a repeated query parameter is refused',
    await get([
      ['status', 'todo'],
      ['status', 'done'],
    ]),
    invalid,
  );
  checkRefusal(
    recorder,
    'Q-3 a limit beyond the declared maximum is refused',
    await get([['limit', '100000']]),
    invalid,
  );
  checkRefusal(
    recorder,
    'Q-4 a filter of the wrong type is refused without echo',
    await get([['priority', `abc-${m.tag}`]]),
    { ...invalid, mustNotDisclose: [m.tag] },
  );
  checkRefusal(
    recorder,
    'Q-5 a NUL character in a filter is refused as input_invalid naming the filter',
    await get([['assignee', `nul\u0000${m.tag}`]]),
    {
      ...invalid,
      reason: 'input_invalid',
      problemPaths: ['assignee'],
      mustNotDisclose: [m.tag],
    },
  );

  // The cursor control needs two pages: one more record than the page size.
  await createTodo(client, owner, org, { title: uniqueMarker('page filler') });
  const first = await get([['limit', '1']]);
  const cursor = nextCursorOf(first);
  const second = cursor
    ? await get([
        ['limit', '1'],
        ['cursor', cursor],
      ])
    : first;
  const differentPage =
    recordsOf(second)[0]?._id !== undefined && recordsOf(second)[0]?._id !== recordsOf(first)[0]?._id;
  checkControl(
    recorder,
    'K-0 CONTROL a cursor returned by the API continues the listing',
    second,
    200,
    Boolean(cursor) && differentPage,
  );
  const forged: [string, string][] = [
    ['K-1 a garbage cursor is refused', `not-a-cursor-${m.tag}`],
    [
      'K-2 a base64 cursor carrying SQL is refused',
      Buffer.from(`{"seq":"'; DROP TABLE r_todos;--${m.tag}"}`).toString('base64url'),
    ],
    [
      'K-3 a re-encoded cursor with an injected value is refused',
      Buffer.from(`l:todos:1 OR 1=1 ${m.tag}`).toString('base64url'),
    ],
    ['K-4 an oversized cursor is refused', `${m.tag}${'A'.repeat(8_000)}`],
  ];
  for (const [label, value] of forged) {
    checkRefusal(recorder, label, await get([['cursor', value]]), {
      ...invalid,
      mustNotDisclose: [value.slice(0, 40), m.tag],
    });
  }
}
