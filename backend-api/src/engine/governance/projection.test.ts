import { z_image, z_webPage } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractViolation } from './contract-violation.js';
import { breachesContract, compileProjector, newProjectionReport, type ProjectionReport } from './projection.js';

const IMAGES = 'https://img.agency.example';

function run(schema: z.ZodType, value: unknown, path?: string): { out: unknown; report: ProjectionReport } {
  const report = newProjectionReport();
  return { out: compileProjector(schema).project(value, report, path), report };
}

const Doc = z.object({
  title: z.string(),
  status: z.enum(['a', 'b']).default('a'),
  items: z.array(z.object({ label: z.string(), tags: z.array(z.object({ name: z.string() })).optional() })),
  meta: z.record(z.string(), z.object({ n: z.number() })).optional(),
  choice: z
    .union([z.object({ kind: z.literal('x'), x: z.number() }), z.object({ kind: z.literal('y'), y: z.string() })])
    .optional(),
  note: z.string().nullable().optional(),
});

describe('projection: what leaves', () => {
  it('keeps declared values at every depth and reports undeclared keys by their parent, never by name', () => {
    const { out, report } = run(Doc, {
      title: 't',
      secret: 1,
      items: [{ label: 'l', cost: 3, tags: [{ name: 'n', owner: 'o' }] }],
      meta: { k: { n: 1, margin: 9 } },
      choice: { kind: 'x', x: 2, margin: 9 },
    });
    expect(out).toEqual({
      title: 't',
      items: [{ label: 'l', tags: [{ name: 'n' }] }],
      meta: { k: { n: 1 } },
      choice: { kind: 'x', x: 2 },
    });
    expect(report.withheld.map((w) => w.path).sort()).toEqual([
      '*',
      'choice.*',
      'items[0].*',
      'items[0].tags[0].*',
      'meta{}.*',
    ]);
    expect(JSON.stringify(report)).not.toMatch(/secret|cost|owner|margin/);
    expect(breachesContract(report)).toBe(false);
  });

  it('leaves out an optional field, a defaulted one and null where null is declared, without a breach', () => {
    const { out, report } = run(Doc, { title: 't', items: [], note: null });
    expect(out).toEqual({ title: 't', items: [], note: null });
    expect(report).toEqual(newProjectionReport());
  });

  it('prefixes every path when the value sits inside a larger result', () => {
    const { report } = run(Doc, { title: 't', items: [{ label: 'l', x: 1 }] }, 'data[2]');
    expect(report.withheld).toEqual([{ path: 'data[2].items[0].*', reason: 'undeclared' }]);
  });

  it('drops a resource’s internal fields without reporting them, and still reports any other undeclared key', () => {
    const record = z.object({ name: z.string() });
    const projector = compileProjector(record, { internalKeys: ['keyHash'] });
    const quiet = newProjectionReport();
    expect(projector.project({ name: 'n', keyHash: 'h' }, quiet)).toEqual({ name: 'n' });
    expect(quiet.withheld).toEqual([]);
    const loud = newProjectionReport();
    expect(projector.project({ name: 'n', keyHash: 'h', constructor: 'x' }, loud)).toEqual({ name: 'n' });
    expect(loud.withheld).toEqual([{ path: '*', reason: 'undeclared' }]);
  });

  it('never throws, and never follows an own __proto__ key', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "title": "t", "items": []}') as unknown;
    expect(run(Doc, hostile).out).toEqual({ title: 't', items: [] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const value of [null, undefined, 42, 'x', [], () => 1]) expect(() => run(Doc, value)).not.toThrow();
  });
});

describe('projection: breaches of the contract', () => {
  it('names a declared field of the wrong type as invalid, not missing (S-13)', () => {
    const { report } = run(Doc, { title: { $gt: '' }, items: [{ label: 'l' }, 'garbage'], choice: { kind: 'z' } });
    expect(report.missing).toEqual([]);
    expect(report.invalid).toEqual([
      { field: 'title', expected: 'string' },
      { field: 'items[1]', expected: 'object' },
      { field: 'choice', expected: 'one of the declared shapes' },
    ]);
  });

  it('names a required field left out as missing', () => {
    const { report } = run(Doc, { items: [{}] });
    expect(report.missing).toEqual(['title', 'items[0].label']);
    expect(report.invalid).toEqual([]);
  });

  it('refuses an enum value outside the declared ones and a number that is not finite', () => {
    const { report } = run(z.object({ s: z.enum(['a']), n: z.number() }), { s: 'zzz', n: Number.NaN });
    expect(report.invalid).toEqual([
      { field: 's', expected: 'one of the declared values' },
      { field: 'n', expected: 'number' },
    ]);
  });

  it('becomes one CONTRACT_VIOLATION that names at most 16 places and no value', () => {
    const rows = Array.from({ length: 40 }, () => ({ label: 42 }));
    const { report } = run(Doc, { title: 't', items: rows });
    const error = contractViolation(report);
    expect(error).toMatchObject({ code: 'CONTRACT_VIOLATION', status: 502 });
    expect(error.violation?.invalid).toHaveLength(16);
    expect(JSON.stringify(error.violation)).not.toContain('42');
  });
});

describe('projection: image and web-page values', () => {
  const Gallery = z.object({
    photos: z.array(z_image({ origins: [IMAGES] })),
    cover: z_image({ origins: [`${IMAGES}:443`] }).optional(),
    links: z.record(z.string(), z_webPage({ origins: ['https://www.agency.example'] })),
  });

  it('withholds values off the declared origins by their position, and keeps the rest as they were', () => {
    const photos = [
      `${IMAGES}/1.jpg`,
      'https://cdn.partner-photos.example/2.jpg',
      `${IMAGES}/3.jpg?size=large#top`,
      'http://img.agency.example/4.jpg',
      `https://user:pw@img.agency.example/5.jpg`,
      '/relative/6.jpg',
      'javascript:alert(1)',
      `https://img.agency.example.evil.example/8.jpg`,
    ];
    const { out, report } = run(Gallery, {
      photos,
      cover: `${IMAGES}/c.jpg`,
      links: { a: 'https://www.agency.example/a' },
    });
    expect(out).toEqual({
      photos: [`${IMAGES}/1.jpg`, `${IMAGES}/3.jpg?size=large#top`],
      cover: `${IMAGES}/c.jpg`,
      links: { a: 'https://www.agency.example/a' },
    });
    expect(report.withheld).toEqual([
      { path: 'photos[1]', reason: 'origin_not_declared' },
      { path: 'photos[3]', reason: 'url_not_allowed' },
      { path: 'photos[4]', reason: 'url_not_allowed' },
      { path: 'photos[5]', reason: 'url_not_allowed' },
      { path: 'photos[6]', reason: 'url_not_allowed' },
      { path: 'photos[7]', reason: 'origin_not_declared' },
    ]);
  });

  it('omits a withheld optional field and record entry, leaving the row', () => {
    const { out, report } = run(Gallery, {
      photos: [],
      cover: 'https://evil.example/c.jpg',
      links: { a: 'https://x.example/' },
    });
    expect(out).toEqual({ photos: [], links: {} });
    expect(report.withheld).toEqual([
      { path: 'cover', reason: 'origin_not_declared' },
      { path: 'links{}', reason: 'origin_not_declared' },
    ]);
  });

  it('treats a non-string URL as a wrong type', () => {
    expect(run(Gallery, { photos: [{ href: `${IMAGES}/1.jpg` }], links: {} }).report.invalid).toEqual([
      { field: 'photos[0]', expected: 'string' },
    ]);
  });
});

describe('projection: composite shapes', () => {
  it('projects two intersected objects as one, reporting only what neither declares', () => {
    const schema = z.object({ a: z.string() }).and(z.object({ b: z.number() }));
    const { out, report } = run(schema, { a: 'x', b: 1, c: true });
    expect(out).toEqual({ a: 'x', b: 1 });
    expect(report.withheld).toEqual([{ path: '*', reason: 'undeclared' }]);
  });

  it('follows a recursive schema to any depth', () => {
    type Node = { name: string; children: Node[] };
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(NodeSchema) }));
    const deep = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [], leak: 1 }] }] };
    const { out, report } = run(NodeSchema, deep);
    expect(out).toEqual({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] });
    expect(report.withheld).toEqual([{ path: 'children[0].children[0].*', reason: 'undeclared' }]);
  });

  it('cuts a tuple at its declared length', () => {
    const { out, report } = run(z.tuple([z.string(), z.number()]), ['a', 1, 'extra']);
    expect(out).toEqual(['a', 1]);
    expect(report.withheld).toEqual([{ path: '[2]', reason: 'undeclared' }]);
  });
});
