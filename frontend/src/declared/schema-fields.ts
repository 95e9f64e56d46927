/** A JSON Schema node as the backend writes it (`z.toJSONSchema`): read loosely, anything unknown is ignored. */
export type JsonSchemaNode = Record<string, unknown>;

/** One field of a generated form or filter, read from its JSON Schema. */
export interface SchemaField {
  name: string;
  label: string;
  control: 'text' | 'textarea' | 'select' | 'number' | 'checkbox';
  /** Select choices as `[value, label]` (values are the JSON values as text). */
  options?: ReadonlyArray<readonly [string, string]>;
  /** The JSON values behind `options`, by their text. */
  optionValues?: ReadonlyMap<string, unknown>;
  required: boolean;
  /** `null` is a value the field takes (an empty input sends it). */
  nullable: boolean;
  integer: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  email: boolean;
  hint?: string;
  defaultValue?: unknown;
}

/** Text areas from this length on. */
const LONG_TEXT = 300;
/** Bounds this wide are a type's own (a safe integer), not a rule a person needs to hear. */
const MEANINGFUL_BOUND = 1e12;

/** `in_progress` / `inProgress` → "In progress". */
export function inWords(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? `${words[0]?.toUpperCase()}${words.slice(1)}` : key;
}

const isNode = (value: unknown): value is JsonSchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The node without a `null` alternative, and whether it had one (`anyOf: [X, { type: 'null' }]`). */
function withoutNull(node: JsonSchemaNode): { node: JsonSchemaNode; nullable: boolean } {
  const alternatives = Array.isArray(node.anyOf) ? node.anyOf.filter(isNode) : undefined;
  if (alternatives) {
    const rest = alternatives.filter((alternative) => alternative.type !== 'null');
    if (rest.length === 1 && rest[0]) {
      const inner = withoutNull(rest[0]);
      // What the wrapper says of the field (its title, description, default) holds for the inner schema too.
      const said = Object.fromEntries(
        ['title', 'description', 'default'].filter((key) => node[key] !== undefined).map((key) => [key, node[key]]),
      );
      return { node: { ...inner.node, ...said }, nullable: rest.length < alternatives.length || inner.nullable };
    }
  }
  if (Array.isArray(node.type) && node.type.includes('null')) {
    const types = node.type.filter((type) => type !== 'null');
    return { node: { ...node, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { node, nullable: false };
}

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** One property as a field; undefined for shapes a generated form does not edit (lists, nested objects). */
function fieldOf(name: string, raw: JsonSchemaNode, required: boolean): SchemaField | undefined {
  const { node, nullable } = withoutNull(raw);
  const label = typeof node.title === 'string' && node.title ? node.title : inWords(name);
  const base = {
    name,
    label,
    required,
    nullable,
    integer: false,
    email: false,
    ...(typeof node.description === 'string' && node.description ? { hint: node.description } : {}),
    ...(node.default !== undefined ? { defaultValue: node.default } : {}),
  };
  const choices = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : undefined;
  if (choices) {
    const values = new Map(choices.map((choice) => [String(choice), choice as unknown]));
    return {
      ...base,
      control: 'select',
      options: [...values.keys()].map((value) => [value, inWords(value)] as const),
      optionValues: values,
    };
  }
  const minimum = numberOf(node.minimum) ?? numberOf(node.exclusiveMinimum);
  const maximum = numberOf(node.maximum) ?? numberOf(node.exclusiveMaximum);
  const minLength = numberOf(node.minLength);
  const maxLength = numberOf(node.maxLength);
  switch (node.type) {
    case 'string':
      return {
        ...base,
        control: maxLength === undefined || maxLength >= LONG_TEXT ? 'textarea' : 'text',
        email: node.format === 'email',
        ...(minLength !== undefined ? { minLength } : {}),
        ...(maxLength !== undefined ? { maxLength } : {}),
      };
    case 'integer':
    case 'number':
      return {
        ...base,
        control: 'number',
        integer: node.type === 'integer',
        ...(minimum !== undefined && Math.abs(minimum) < MEANINGFUL_BOUND ? { minimum } : {}),
        ...(maximum !== undefined && Math.abs(maximum) < MEANINGFUL_BOUND ? { maximum } : {}),
      };
    case 'boolean':
      return { ...base, control: 'checkbox' };
    default:
      return undefined;
  }
}

/** The editable fields of an object schema, in declaration order; `skip` names fields left out (read-only ones). */
export function fieldsOf(schema: JsonSchemaNode | undefined, skip: readonly string[] = []): SchemaField[] {
  if (!schema || !isNode(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).flatMap(([name, node]) => {
    if (skip.includes(name) || !isNode(node)) return [];
    const field = fieldOf(name, node, required.has(name));
    return field ? [field] : [];
  });
}

/** A value as a form shows it. */
export function formTextOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The initial values of a form: the record's, else the schema's defaults, else empty. */
export function initialValuesOf(
  fields: readonly SchemaField[],
  record?: Record<string, unknown>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    const source = record ? record[field.name] : field.defaultValue;
    values[field.name] =
      source === undefined && field.control === 'select' && field.required && !record
        ? (field.options?.[0]?.[0] ?? '')
        : formTextOf(source);
  }
  return values;
}

/** What is wrong with one value, in plain words; undefined when it is fine. */
export function problemWith(field: SchemaField, text: string): string | undefined {
  const label = field.label.toLowerCase();
  if (text === '') {
    if (field.required && !field.nullable && field.control !== 'checkbox')
      return field.control === 'select' ? `Choose a ${label}.` : `Enter a ${label}.`;
    return undefined;
  }
  if (field.control === 'number') {
    const value = Number(text);
    if (!Number.isFinite(value) || text.trim() === '') return 'Enter a number.';
    if (field.integer && !Number.isInteger(value)) return 'Enter a whole number.';
    if (field.minimum !== undefined && field.maximum !== undefined && (value < field.minimum || value > field.maximum))
      return `Enter a number from ${field.minimum} to ${field.maximum}.`;
    if (field.minimum !== undefined && value < field.minimum) return `Enter ${field.minimum} or more.`;
    if (field.maximum !== undefined && value > field.maximum) return `Enter ${field.maximum} or less.`;
    return undefined;
  }
  if (field.control === 'text' || field.control === 'textarea') {
    if (field.minLength !== undefined && text.length < field.minLength)
      return field.minLength === 1 ? `Enter a ${label}.` : `Use at least ${field.minLength} characters.`;
    if (field.maxLength !== undefined && text.length > field.maxLength)
      return `Use at most ${field.maxLength} characters (this has ${text.length}).`;
    if (field.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text))
      return 'Enter an email address, like name@example.com.';
  }
  return undefined;
}

/** Every field's problem, by field name. */
export function problemsOf(fields: readonly SchemaField[], values: Record<string, string>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = problemWith(field, values[field.name] ?? '');
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

/** A form value as JSON: numbers as numbers, choices as their JSON value, booleans as booleans, empty as null. */
export function jsonValueOf(field: SchemaField, text: string): unknown {
  if (field.control === 'checkbox') return text === 'true';
  if (text === '') return null;
  if (field.control === 'number') return Number(text);
  if (field.control === 'select') return field.optionValues?.get(text) ?? text;
  return text;
}

/**
 * The request body of a form. Creating: every filled field (an empty optional one is left out). Editing: only the
 * fields that changed (an emptied field is sent as `null` when it takes one, else left as it was).
 */
export function bodyOf(
  fields: readonly SchemaField[],
  values: Record<string, string>,
  initial?: Record<string, string>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const text = values[field.name] ?? '';
    if (initial && text === (initial[field.name] ?? '')) continue;
    if (text === '' && field.control !== 'checkbox' && !(initial && field.nullable)) continue;
    body[field.name] = jsonValueOf(field, text);
  }
  return body;
}

/** A declared filter as a field (its label the filter's display name); undefined when it cannot be typed in. */
export function filterFieldOf(filter: {
  name: string;
  displayName: string;
  schema: JsonSchemaNode;
}): SchemaField | undefined {
  return fieldsOf({
    type: 'object',
    properties: { [filter.name]: { ...filter.schema, title: filter.displayName } },
  })[0];
}
