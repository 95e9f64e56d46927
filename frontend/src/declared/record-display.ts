import type { ResourceDescription } from '@wildo/shared-lib';
import { inWords, type JsonSchemaNode } from './schema-fields';

/** Fields every record carries; a list row does not repeat them. */
const SYSTEM_FIELDS = new Set([
  '_id',
  'organizationId',
  'userId',
  'createdByUserId',
  'createdAt',
  'updatedAt',
  'version',
]);
/** Fields that name a record, in order of preference. */
const NAMING_FIELDS = ['title', 'name', 'label', 'subject', 'displayName'];
/** How many facts a list row shows under the record's name. */
const FACTS_PER_ROW = 4;

const propertiesOf = (description: ResourceDescription): Record<string, JsonSchemaNode> => {
  const properties = description.recordSchema.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, JsonSchemaNode>) : {};
};

const isText = (node: JsonSchemaNode | undefined) =>
  node?.type === 'string' ||
  (Array.isArray(node?.anyOf) && (node.anyOf as JsonSchemaNode[]).some((alternative) => alternative.type === 'string'));

/** The field whose value names a record in a list (`title`, `name`, ... or the first text field). */
export function namingFieldOf(description: ResourceDescription): string | undefined {
  const properties = propertiesOf(description);
  return (
    NAMING_FIELDS.find((name) => isText(properties[name])) ??
    Object.keys(properties).find((name) => !SYSTEM_FIELDS.has(name) && isText(properties[name]))
  );
}

/** A value in words: choices as words, yes/no, numbers and text as they are; nothing for lists and objects. */
export function valueInWords(value: unknown, node?: JsonSchemaNode): string | undefined {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value === '') return undefined;
  const choices = node && Array.isArray(node.enum) ? node.enum : undefined;
  return choices?.includes(value) ? inWords(value) : value.length > 80 ? `${value.slice(0, 80)}…` : value;
}

/** The facts a list row shows under a record's name: `[label, value]`, a few declared fields with a value. */
export function factsOf(description: ResourceDescription, record: Record<string, unknown>): Array<[string, string]> {
  const naming = namingFieldOf(description);
  const facts: Array<[string, string]> = [];
  for (const [name, node] of Object.entries(propertiesOf(description))) {
    if (SYSTEM_FIELDS.has(name) || name === naming) continue;
    const text = valueInWords(record[name], node);
    if (text === undefined) continue;
    facts.push([typeof node.title === 'string' && node.title ? node.title : inWords(name), text]);
    if (facts.length === FACTS_PER_ROW) break;
  }
  return facts;
}

/** A record's name in a list: its naming field, else its id. */
export function recordName(
  description: ResourceDescription,
  record: { _id: string } & Record<string, unknown>,
): string {
  const naming = namingFieldOf(description);
  const value = naming ? record[naming] : undefined;
  return typeof value === 'string' && value ? value : record._id;
}

/** "ticket" → "Ticket". */
export function capitalized(text: string): string {
  return text ? `${text[0]?.toUpperCase()}${text.slice(1)}` : text;
}
