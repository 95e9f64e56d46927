import { expect } from 'vitest';

/** What must never leave: field names (matched exactly, as keys and as words in text) and value patterns. */
export interface LeakRules {
  fields: readonly string[];
  values: readonly (RegExp | string)[];
}

/** One leak found: where (a path into the payload) and what matched. */
export interface Leak {
  where: string;
  kind: 'field' | 'value';
  match: string;
}

function parsedJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every place in `payload` where a forbidden field name or value appears: object keys at any depth, string and
 * number values, and text (an MCP text block, a note, an error message) read both as words and, when it holds JSON,
 * as the JSON it holds. Works on anything a surface answers: an MCP tool result (structured content, text blocks,
 * `_meta`), a REST body, an agent tool's outcome.
 *
 * @example
 * expect(findLeaks(rawBackendAnswer, rules)).not.toEqual([]); // the positive control
 * expect(findLeaks(mcpResult, rules)).toEqual([]);
 */
export function findLeaks(payload: unknown, rules: LeakRules): Leak[] {
  const fields = new Set(rules.fields);
  const words = rules.fields.map((field) => ({
    field,
    pattern: new RegExp(`(^|[^A-Za-z0-9_])${escape(field)}($|[^A-Za-z0-9_])`),
  }));
  const patterns = rules.values.map((value) => (typeof value === 'string' ? new RegExp(escape(value)) : value));
  const leaks: Leak[] = [];
  const visitText = (text: string, where: string): void => {
    for (const pattern of patterns)
      if (pattern.test(text)) leaks.push({ where, kind: 'value', match: String(pattern) });
    const json = parsedJson(text);
    if (json !== undefined) return visit(json, `${where}<json>`);
    for (const { field, pattern } of words) if (pattern.test(text)) leaks.push({ where, kind: 'field', match: field });
  };
  const visit = (value: unknown, where: string): void => {
    if (typeof value === 'string') return visitText(value, where);
    if (typeof value === 'number') {
      for (const pattern of patterns)
        if (pattern.test(String(value))) leaks.push({ where, kind: 'value', match: String(pattern) });
      return;
    }
    if (Array.isArray(value)) return value.forEach((item, i) => visit(item, `${where}[${i}]`));
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      const path = where ? `${where}.${key}` : key;
      if (fields.has(key)) leaks.push({ where: path, kind: 'field', match: key });
      visit(child, path);
    }
  };
  visit(payload, '');
  return leaks;
}

/**
 * Fails the test when `payload` holds a forbidden field or value, listing every leak found. Pair it with a positive
 * control: the same rules must find the leaks in the raw answer the surface was given.
 */
export function expectNoLeaks(payload: unknown, rules: LeakRules): void {
  expect(findLeaks(payload, rules), 'forbidden fields or values in the answer').toEqual([]);
}
