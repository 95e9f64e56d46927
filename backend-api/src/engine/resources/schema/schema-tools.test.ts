import { initZodDecorators, ragSourceRegistry } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCreateInputSchema, buildPatchInputSchema, toStrictInput } from './strict-input.js';
import { defOf, shapeOf } from './zod-internals.js';
import { toInputProblems } from './input-problems.js';

initZodDecorators(z);

const Item = z.object({ label: z.string(), tags: z.array(z.object({ name: z.string() })).optional() });
const Doc = z.object({
  title: z.string().min(1).describe('The title').ragSource(),
  status: z.enum(['a', 'b']).default('a'),
  items: z.array(Item).max(3),
  meta: z.record(z.string(), z.object({ n: z.number() })).optional(),
  choice: z
    .union([z.object({ kind: z.literal('x'), x: z.number() }), z.object({ kind: z.literal('y'), y: z.string() })])
    .optional(),
  stamp: z.string().optional(),
});

describe('strict input contracts', () => {
  it('accept the declared shape', () => {
    const input = {
      title: 't',
      items: [{ label: 'l', tags: [{ name: 'n' }] }],
      meta: { k: { n: 1 } },
      choice: { kind: 'y', y: 'v' },
    };
    expect(toStrictInput(Doc).parse(input)).toEqual({ ...input, status: 'a' });
  });

  it('refuse undeclared keys at every depth, including inside records and union branches', () => {
    const strict = toStrictInput(Doc);
    for (const input of [
      { title: 't', items: [], extra: 1 },
      { title: 't', items: [{ label: 'l', extra: 1 }] },
      { title: 't', items: [{ label: 'l', tags: [{ name: 'n', extra: 1 }] }] },
      { title: 't', items: [], meta: { k: { n: 1, extra: 1 } } },
      { title: 't', items: [], choice: { kind: 'x', x: 1, extra: 1 } },
    ]) {
      expect(strict.safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
  });

  it('keep descriptions and decorator metadata', () => {
    const strict = toStrictInput(Doc) as z.ZodObject;
    const title = shapeOf(strict).title as z.ZodType;
    expect(title.description).toBe('The title');
    expect(ragSourceRegistry.get(title)).toBeDefined();
  });

  it('leave server-written fields out of create', () => {
    const create = buildCreateInputSchema(Doc, ['stamp']);
    expect(create.safeParse({ title: 't', items: [], stamp: 'x' }).success).toBe(false);
    expect(create.safeParse({ title: 't', items: [] }).success).toBe(true);
  });

  it('make every patch field optional without its default', () => {
    const patch = buildPatchInputSchema(Doc, []);
    expect(patch.parse({ title: 'new' })).toEqual({ title: 'new' });
    expect(defOf(shapeOf(Doc).status as z.ZodType).type).toBe('default');
    expect(patch.safeParse({}).success).toBe(false);
  });

  it('handle recursive schemas', () => {
    type Node = { name: string; children: Node[] };
    const NodeSchema: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(NodeSchema) }));
    const strict = toStrictInput(NodeSchema);
    expect(strict.safeParse({ name: 'a', children: [{ name: 'b', children: [] }] }).success).toBe(true);
    expect(strict.safeParse({ name: 'a', children: [{ name: 'b', children: [], x: 1 }] }).success).toBe(false);
  });
});

describe('input problems', () => {
  it('describe what was expected, never the value, and at most 16', () => {
    const schema = z.strictObject({ list: z.array(z.object({ n: z.number() })) });
    const input = { list: Array.from({ length: 30 }, () => ({ n: 'value-that-must-not-leak' })), 'leaked key!': 1 };
    const problems = toInputProblems(schema.safeParse(input).error!.issues, input);
    expect(problems).toHaveLength(16);
    expect(JSON.stringify(problems)).not.toMatch(/value-that-must-not-leak|leaked key!/);
    expect(problems[0]).toEqual({ path: 'list[0].n', expected: 'number' });
  });

  it('tell a missing field from a wrong one', () => {
    const schema = z.object({ a: z.string(), b: z.string() });
    const input = { b: 1 };
    expect(toInputProblems(schema.safeParse(input).error!.issues, input)).toEqual([
      { path: 'a', expected: 'required' },
      { path: 'b', expected: 'string' },
    ]);
  });

  it('name an undeclared key that is a plain identifier with the declared keys there, and any other at its parent', () => {
    const schema = z.strictObject({ title: z.string(), items: z.array(z.strictObject({ label: z.string() })) });
    const input = {
      title: 't',
      company: 'value-never-echoed',
      'not an identifier': 1,
      items: [{ label: 'l', extra: true }],
    };
    expect(toInputProblems(schema.safeParse(input).error!.issues, input, [], { schema })).toEqual([
      { path: 'items[0].extra', expected: 'a declared field: label' },
      { path: 'company', expected: 'a declared field: title, items' },
      { path: '(root)', expected: 'no undeclared fields' },
    ]);
  });

  it('name a read-only field as not writable', () => {
    const schema = z.strictObject({ title: z.string() });
    const input = { title: 't', customerSince: '2020-01-01' };
    expect(
      toInputProblems(schema.safeParse(input).error!.issues, input, [], { schema, readOnlyFields: ['customerSince'] }),
    ).toEqual([{ path: 'customerSince', expected: 'not writable: read-only field' }]);
    expect(schema.safeParse({ title: 't' }).success).toBe(true);
  });
});
