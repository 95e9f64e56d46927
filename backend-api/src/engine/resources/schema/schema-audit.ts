import type { z } from 'zod';
import { defOf } from './zod-internals.js';

/** Why a schema cannot be served: a path into the schema and what to change. */
export interface SchemaAuditProblem {
  path: string;
  message: string;
}

const REFUSED_KINDS: Record<string, string> = {
  any: 'z.any() lets undeclared data through; declare the shape',
  unknown: 'z.unknown() lets undeclared data through; declare the shape',
  transform: 'transforms make stored and returned values differ; store the final value instead',
  pipe: 'pipes/transforms make stored and returned values differ; store the final value instead',
  promise: 'promises are not JSON',
  map: 'maps are not JSON; use z.record()',
  set: 'sets are not JSON; use z.array()',
  date: 'Date is not JSON; use z.iso.datetime()',
  bigint: 'bigint is not JSON; use z.number().int() or a string',
  symbol: 'symbols are not JSON',
  function: 'functions are not JSON',
  custom: 'z.custom() cannot be projected; declare the shape',
  file: 'use z_file() for files',
  undefined: 'undefined is not JSON; use .optional()',
  void: 'void is not JSON',
  nan: 'NaN is not JSON',
  never: 'a field that can never hold a value should be removed',
};

/** Keys that would collide with object prototypes or the engine's own record fields. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Checks that a schema can be validated strictly, stored as JSON and projected field by field:
 * no opaque (`any`/`unknown`) or loose (`looseObject`, `catchall`) parts, no transforms, only JSON types.
 * Returns every problem found, each with its path, so registration can print them all at once.
 */
export function auditSchema(schema: z.ZodType, basePath = ''): SchemaAuditProblem[] {
  const problems: SchemaAuditProblem[] = [];
  const seen = new Set<z.ZodType>();
  const visit = (node: z.ZodType, path: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = defOf(node);
    const refused = REFUSED_KINDS[def.type];
    if (refused) {
      problems.push({ path: path || '(root)', message: refused });
      return;
    }
    switch (def.type) {
      case 'object':
        if (def.catchall && defOf(def.catchall).type !== 'never') {
          problems.push({
            path: path || '(root)',
            message:
              'loose objects (looseObject/catchall/passthrough) let undeclared fields through; declare every field',
          });
        }
        for (const [key, child] of Object.entries(def.shape ?? {})) {
          if (RESERVED_KEYS.has(key)) problems.push({ path: join(path, key), message: `"${key}" is a reserved key` });
          else visit(child, join(path, key));
        }
        return;
      case 'array':
        if (def.element) visit(def.element, `${path}[]`);
        return;
      case 'record':
        if (def.valueType) visit(def.valueType, `${path}{}`);
        return;
      case 'tuple':
        def.items?.forEach((item, i) => visit(item, `${path}[${i}]`));
        if (def.rest) visit(def.rest, `${path}[]`);
        return;
      case 'union':
        def.options?.forEach((option, i) => visit(option, `${path}|${i}`));
        return;
      case 'intersection':
        if (def.left) visit(def.left, path);
        if (def.right) visit(def.right, path);
        return;
      case 'lazy':
        if (def.getter) visit(def.getter(), path);
        return;
      default:
        if (def.innerType) visit(def.innerType, path);
    }
  };
  visit(schema, basePath);
  return problems;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
