import { createHash } from 'node:crypto';

/** Copies a JSON value with object keys sorted at every depth; arrays keep their order (it is meaningful). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== undefined) sorted[key] = sortKeysDeep(child);
  }
  return sorted;
}

/** Serializes with sorted keys, two-space indentation and a final newline: equal values give equal bytes. */
export function toCanonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeysDeep(value), null, 2)}\n`;
}

/** `sha256:<hex>` of the canonical JSON of a value. */
export function hashCanonical(value: unknown): string {
  return `sha256:${createHash('sha256').update(toCanonicalJson(value)).digest('hex')}`;
}
