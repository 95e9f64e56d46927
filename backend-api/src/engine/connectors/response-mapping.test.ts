import { describe, expect, it } from 'vitest';
import { compileJsonPath, JsonPathProblem } from './json-path.js';
import { compileResponseMapping, type BindingProblem } from './response-mapping.js';
import type { ResponseMapping } from './connector.types.js';

function compile(mapping: ResponseMapping) {
  const problems: BindingProblem[] = [];
  const map = compileResponseMapping(mapping, problems);
  return { map, problems };
}

describe('JSONPath', () => {
  it('reads names, indices, wildcards and recursion, own properties only', () => {
    const answer = { stays: [{ id: 'a' }, { id: 'b' }], meta: { total: 2 } };
    expect(compileJsonPath('$.meta.total').read(answer)).toBe(2);
    expect(compileJsonPath('$.stays[1].id').read(answer)).toBe('b');
    expect(compileJsonPath('$.stays[*].id').read(answer)).toEqual(['a', 'b']);
    expect(compileJsonPath('$..id').read(answer)).toEqual(['a', 'b']);
    expect(compileJsonPath('$.constructor').read({})).toBeUndefined();
    expect(compileJsonPath('$.missing.deeper').read(answer)).toBeUndefined();
  });

  it.each(['$.stays[?(@.price < 10)]', '$.stays[(@.length-1)]', 'stays.id', '$..^', '$.a~'])(
    'refuses %s: scripts and filters are never evaluated',
    (path) => {
      expect(() => compileJsonPath(path)).toThrow(JsonPathProblem);
    },
  );
});

describe('a response mapping', () => {
  it('maps the rows of a collection into an output field, extracts totals, and drops what it does not name', () => {
    const { map, problems } = compile({
      into: 'stays',
      collection: '$.stays[*]',
      map: { id: '$.id', name: '$.name' },
      extract: { totalMatches: '$.totalMatches' },
    });
    expect(problems).toEqual([]);
    expect(
      map({
        stays: [{ id: 'ws-1', name: 'Casa', margin: 40, guests: [{ passport: 'P' }] }],
        totalMatches: 1,
        trace: 'x',
      }),
    ).toEqual({ stays: [{ id: 'ws-1', name: 'Casa' }], totalMatches: 1 });
  });

  it('leaves the output field out when the answer has no list there (projection reports it missing, not empty)', () => {
    const { map } = compile({ into: 'stays', collection: '$.stays[*]', map: { id: '$.id' } });
    expect(map({ results: [] })).toEqual({});
    expect(map({ stays: [] })).toEqual({ stays: [] });
  });

  it('keeps an error row as a row, marked and mapped by its own map (S-13)', () => {
    const { map, problems } = compile({
      into: 'rooms',
      collection: '$.rows[*]',
      map: { room: '$.room', status: '$.status' },
      onError: { when: { path: '$.error', exists: true }, map: { code: '$.error.code', message: '$.error.message' } },
    });
    expect(problems).toEqual([]);
    expect(
      map({
        rows: [
          { room: 'Double', status: 'free', net: 3 },
          { room: 'Family', error: { code: 'agency-busy', message: 'busy', trace: 'db-3' } },
        ],
      }),
    ).toEqual({
      rooms: [
        { $row: 'ok', room: 'Double', status: 'free' },
        { $row: 'error', code: 'agency-busy', message: 'busy' },
      ],
    });
  });

  it('maps one object as the output itself, or into a field', () => {
    expect(compile({ map: { name: '$.name' } }).map({ name: 'Casa', net: 1 })).toEqual({ name: 'Casa' });
    expect(compile({ into: 'stay', map: { rooms: '$.rooms' } }).map({ rooms: [{ guests: [] }] })).toEqual({
      stay: { rooms: [{ guests: [] }] },
    });
  });

  it('reports every mistake with its place and the fix', () => {
    const { problems } = compile({
      collection: 'stays',
      map: { name: '$.stays[?(@.x)]', ['__proto__']: '$.a' },
      extract: { total: '$.total' },
      onError: { when: { path: '$.error' }, map: { code: 'error.code' } },
    } as unknown as ResponseMapping);
    expect(problems.map((p: BindingProblem) => p.path).sort()).toEqual(
      [
        'response.collection',
        'response.extract',
        'response.map.__proto__',
        'response.map.name',
        'response.onError.map.code',
      ].sort(),
    );
  });
});
