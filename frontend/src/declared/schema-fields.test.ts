import { describe, expect, it } from 'vitest';
import { bodyOf, fieldsOf, filterFieldOf, initialValuesOf, problemsOf } from './schema-fields';

// What `z.toJSONSchema` writes for a create contract: a required text, a choice, a bounded integer with a default,
// a nullable text, a yes/no, and a list (which a generated form does not edit).
const CREATE = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    kind: { type: 'string', enum: ['laptop', 'in_use'] },
    quantity: { type: 'integer', minimum: 1, maximum: 50, default: 1 },
    note: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'null' }], title: 'Remark' },
    spare: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    age: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
  },
  required: ['name', 'kind'],
  additionalProperties: false,
};

describe('forms from JSON Schema', () => {
  it('reads each property as a field, in order, leaving out what a form cannot edit', () => {
    const fields = fieldsOf(CREATE);
    expect(fields.map((field) => [field.name, field.control, field.required])).toEqual([
      ['name', 'text', true],
      ['kind', 'select', true],
      ['quantity', 'number', false],
      ['note', 'textarea', false],
      ['spare', 'checkbox', false],
      ['age', 'number', false],
    ]);
    expect(fields[1]?.options).toEqual([
      ['laptop', 'Laptop'],
      ['in_use', 'In use'],
    ]);
    expect(fields[3]).toMatchObject({ label: 'Remark', nullable: true });
    // A safe integer's own bounds are not a rule to tell anyone.
    expect(fields[5]).not.toHaveProperty('minimum');
    expect(fieldsOf(CREATE, ['name']).map((field) => field.name)).not.toContain('name');
  });

  it('says what is wrong in plain words, and nothing when it is fine', () => {
    const fields = fieldsOf(CREATE);
    expect(problemsOf(fields, { name: '', kind: 'laptop', quantity: '2.5' })).toEqual({
      name: 'Enter a name.',
      quantity: 'Enter a whole number.',
    });
    expect(problemsOf(fields, { name: 'x'.repeat(121), kind: 'laptop', quantity: '51' })).toEqual({
      name: 'Use at most 120 characters (this has 121).',
      quantity: 'Enter a number from 1 to 50.',
    });
    expect(problemsOf(fields, { name: 'Desk', kind: 'laptop', quantity: '3', age: '-4' })).toEqual({});
  });

  it('sends on create every filled field as its JSON value, and on edit only what changed', () => {
    const fields = fieldsOf(CREATE);
    const initial = initialValuesOf(fields);
    expect(initial).toMatchObject({ name: '', kind: 'laptop', quantity: '1', note: '', spare: '' });
    expect(bodyOf(fields, { ...initial, name: 'Desk', kind: 'in_use', spare: 'true' })).toEqual({
      name: 'Desk',
      kind: 'in_use',
      quantity: 1,
      spare: true,
    });
    const record = { name: 'Desk', kind: 'laptop', quantity: 2, note: 'old', spare: false };
    const editing = initialValuesOf(fields, record);
    expect(bodyOf(fields, { ...editing, quantity: '3', note: '' }, editing)).toEqual({ quantity: 3, note: null });
    expect(bodyOf(fields, editing, editing)).toEqual({});
  });

  it('makes a declared filter a field labelled with its display name', () => {
    expect(
      filterFieldOf({ name: 'status', displayName: 'State', schema: { type: 'string', enum: ['open', 'closed'] } }),
    ).toMatchObject({ name: 'status', label: 'State', control: 'select' });
    expect(filterFieldOf({ name: 'tags', displayName: 'Tags', schema: { type: 'array' } })).toBeUndefined();
  });
});
