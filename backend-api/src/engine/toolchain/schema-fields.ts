import { z } from 'zod';

// A schema as a flat list of fields (`stay.rooms[].name: string, required`): what diff, verify and init compare.
// Paths use `[]` for "every element", so a field's path does not depend on how many elements an answer had.

/** One field of a schema: where it is, its JSON type, whether it must be present. */
export interface FieldShape {
  path: string;
  /** `string`, `number`, `integer`, `boolean`, `object`, `array`, `null`, unions as `string|null`; `any` when open. */
  type: string;
  required: boolean;
}

type JsonSchema = Record<string, unknown>;

const MAX_DEPTH = 12;

/** The fields of a Zod schema, as its JSON Schema form for `io` (input: what callers send; output: what they get). */
export function fieldsOfZod(schema: z.ZodType, io: 'input' | 'output'): FieldShape[] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return fieldsOfJsonSchema(json);
}

/** Called with each field's path and its (resolved) schema node, e.g. to read metadata a registry added. */
export type FieldVisitor = (path: string, node: JsonSchema) => void;

/** The fields of a JSON Schema (local `#/$defs/...` and `#/definitions/...` references followed). */
export function fieldsOfJsonSchema(schema: JsonSchema, visit?: FieldVisitor): FieldShape[] {
  const fields: FieldShape[] = [];
  walk(schema, schema, '', true, fields, 0, visit);
  return fields.sort((a, b) => a.path.localeCompare(b.path));
}

function resolve(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) return current;
    let target: unknown = root;
    for (const part of ref.slice(2).split('/'))
      target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (target === null || typeof target !== 'object') return current;
    current = target as JsonSchema;
  }
  return current;
}

/** Alternatives merged: `allOf` parts combine their properties; `anyOf`/`oneOf` give a union type. */
function merged(root: JsonSchema, input: JsonSchema): JsonSchema {
  const schema = resolve(root, input);
  if (!Array.isArray(schema.allOf)) return schema;
  const out: JsonSchema = { ...schema, allOf: undefined };
  const properties: Record<string, unknown> = { ...((schema.properties as Record<string, unknown>) ?? {}) };
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const part of schema.allOf as JsonSchema[]) {
    const p = merged(root, part);
    Object.assign(properties, (p.properties as Record<string, unknown>) ?? {});
    for (const name of (p.required as string[] | undefined) ?? []) required.add(name);
    if (p.type !== undefined && out.type === undefined) out.type = p.type;
    if (p.items !== undefined && out.items === undefined) out.items = p.items;
  }
  if (Object.keys(properties).length > 0) {
    out.properties = properties;
    out.type ??= 'object';
  }
  if (required.size > 0) out.required = [...required];
  return out;
}

/** The JSON type of a schema, unions joined with `|` in a stable order. */
export function typeOf(root: JsonSchema, input: JsonSchema): string {
  const schema = merged(root, input);
  const types = new Set<string>();
  const add = (s: JsonSchema) => {
    const resolved = merged(root, s);
    const alternatives = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives)) for (const a of alternatives) add(a);
    else if (Array.isArray(resolved.type)) for (const t of resolved.type as string[]) types.add(t);
    else if (typeof resolved.type === 'string') types.add(resolved.type);
    else if (resolved.const !== undefined) types.add(resolved.const === null ? 'null' : typeof resolved.const);
    else if (Array.isArray(resolved.enum))
      for (const v of resolved.enum as unknown[]) types.add(v === null ? 'null' : typeof v);
    else if (resolved.properties) types.add('object');
    else types.add('any');
    if (resolved.nullable === true) types.add('null');
  };
  add(schema);
  return [...types].sort().join('|');
}

function walk(
  root: JsonSchema,
  input: JsonSchema,
  path: string,
  required: boolean,
  out: FieldShape[],
  depth: number,
  visit: FieldVisitor | undefined,
) {
  if (depth > MAX_DEPTH) return;
  const schema = merged(root, input);
  if (path) {
    out.push({ path, type: typeOf(root, schema), required });
    visit?.(path, schema);
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  // A nullable object (`anyOf: [object, null]`) is walked through its object alternative.
  const body = Array.isArray(alternatives)
    ? (alternatives.map((a) => merged(root, a)).find((a) => a.properties || a.items) ?? schema)
    : schema;
  const properties = body.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    const needed = new Set((body.required as string[] | undefined) ?? []);
    for (const [name, child] of Object.entries(properties))
      walk(root, child, path ? `${path}.${name}` : name, needed.has(name), out, depth + 1, visit);
  }
  const items = body.items as JsonSchema | undefined;
  if (items && typeof items === 'object' && !Array.isArray(items))
    walk(root, items, `${path}[]`, true, out, depth + 1, visit);
}
