import type { z } from 'zod';
import { defOf } from './zod-internals.js';

/** Marker for "this value is not declared here": the caller drops it. */
const DROP: unique symbol = Symbol('drop');
/** A projected value, or {@link DROP} (which `unknown` already admits). */
type Projected = unknown;

/** Collects the paths where projection removed something (for surfaces that report withheld data). */
export type WithheldCollector = string[] | undefined;

type ProjectNode = (value: unknown, path: string, withheld: WithheldCollector) => Projected;

/** A compiled projection: keeps exactly what the schema declares, at every depth. */
export interface Projector {
  /** Returns the projected value (`undefined` when nothing declared remains); `withheld` receives dropped paths. */
  project(value: unknown, withheld?: string[]): unknown;
}

/**
 * Compiles a schema into a projection function, once per contract. Projection never validates and never
 * throws: values of an undeclared key, or of a type the schema does not allow at that place, are removed.
 * Paths in `withheld` name declared places (`items[3].price`) or, for undeclared keys, their parent with `.*`,
 * so a report never repeats an undeclared key's name.
 */
export function compileProjector(schema: z.ZodType): Projector {
  const root = compileNode(schema, new Map());
  return {
    project(value, withheld) {
      const out = root(value, '', withheld);
      return out === DROP ? undefined : out;
    },
  };
}

function compileNode(schema: z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const cached = memo.get(schema);
  if (cached) return cached;
  // Recursive schemas: register a forwarder before compiling children.
  let compiled: ProjectNode | undefined;
  const forward: ProjectNode = (v, p, w) => (compiled as ProjectNode)(v, p, w);
  memo.set(schema, forward);
  compiled = buildNode(schema, memo);
  memo.set(schema, compiled);
  return compiled;
}

function buildNode(schema: z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return leaf((v) => typeof v === 'string');
    case 'number':
      return leaf((v) => typeof v === 'number' && Number.isFinite(v));
    case 'boolean':
      return leaf((v) => typeof v === 'boolean');
    case 'null':
      return leaf((v) => v === null);
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return leaf((v) => allowed.has(v as string | number));
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return leaf((v) => allowed.has(v));
    }
    case 'template_literal':
      return leaf((v) => typeof v === 'string' && schema.safeParse(v).success);
    case 'object':
      return objectNode(def.shape ?? {}, memo);
    case 'array':
      return arrayNode(compileNode(def.element as z.ZodType, memo));
    case 'tuple':
      return tupleNode(
        (def.items ?? []).map((item) => compileNode(item, memo)),
        def.rest ? compileNode(def.rest, memo) : null,
      );
    case 'record':
      return recordNode(def.keyType, compileNode(def.valueType as z.ZodType, memo));
    case 'union':
      return unionNode(def.options ?? [], memo);
    case 'intersection':
      return intersectionNode(compileNode(def.left as z.ZodType, memo), compileNode(def.right as z.ZodType, memo));
    case 'lazy':
      return lazyNode(def.getter as () => z.ZodType, memo);
    case 'optional':
      return wrapperNode(compileNode(def.innerType as z.ZodType, memo), (v) => v === undefined);
    case 'nullable':
      return wrapperNode(compileNode(def.innerType as z.ZodType, memo), (v) => v === null);
    default:
      // default, prefault, readonly, catch, nonoptional: same JSON shape as their inner schema.
      if (def.innerType) return compileNode(def.innerType, memo);
      // Anything else (any, unknown, custom, ...) is refused at registration; project it to nothing.
      return (_v, path, withheld) => drop(path, withheld);
  }
}

/** Removes a value, recording where. */
function drop(path: string, withheld: WithheldCollector): typeof DROP {
  withheld?.push(path || '(root)');
  return DROP;
}

function leaf(accepts: (v: unknown) => boolean): ProjectNode {
  return (v, path, withheld) => (accepts(v) ? v : drop(path, withheld));
}

function wrapperNode(inner: ProjectNode, passes: (v: unknown) => boolean): ProjectNode {
  return (v, path, withheld) => (passes(v) ? v : inner(v, path, withheld));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objectNode(shape: Record<string, z.ZodType>, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const fields = Object.entries(shape).map(([key, child]) => [key, compileNode(child, memo)] as const);
  const declared = new Set(fields.map(([key]) => key));
  return (v, path, withheld) => {
    if (!isPlainObject(v)) return drop(path, withheld);
    const out: Record<string, unknown> = {};
    for (const [key, node] of fields) {
      if (!Object.hasOwn(v, key)) continue;
      const projected = node(v[key], path ? `${path}.${key}` : key, withheld);
      if (projected !== DROP && projected !== undefined) out[key] = projected;
    }
    if (withheld && Object.keys(v).some((key) => !declared.has(key))) withheld.push(path ? `${path}.*` : '*');
    return out;
  };
}

function arrayNode(element: ProjectNode): ProjectNode {
  return (v, path, withheld) => {
    if (!Array.isArray(v)) return drop(path, withheld);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const projected = element(v[i], `${path}[${i}]`, withheld);
      if (projected !== DROP) out.push(projected);
    }
    return out;
  };
}

function tupleNode(items: ProjectNode[], rest: ProjectNode | null): ProjectNode {
  return (v, path, withheld) => {
    if (!Array.isArray(v)) return drop(path, withheld);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const node = items[i] ?? rest;
      const projected = node ? node(v[i], `${path}[${i}]`, withheld) : DROP;
      if (projected === DROP) {
        // A tuple cannot lose a middle element without shifting the others: cut it here.
        if (!node) withheld?.push(`${path}[${i}]`);
        break;
      }
      out.push(projected);
    }
    return out;
  };
}

function recordNode(keyType: z.ZodType | undefined, value: ProjectNode): ProjectNode {
  return (v, path, withheld) => {
    if (!isPlainObject(v)) return drop(path, withheld);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      if (key === '__proto__' || (keyType && !keyType.safeParse(key).success)) {
        withheld?.push(path ? `${path}.*` : '*');
        continue;
      }
      const projected = value(item, `${path}{}`, withheld);
      if (projected !== DROP) out[key] = projected;
    }
    return out;
  };
}

function unionNode(options: z.ZodType[], memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const branches = options.map((option) => ({ option, node: compileNode(option, memo) }));
  return (v, path, withheld) => {
    // Pick the first branch whose projection of the value satisfies it, so an object is projected through
    // the shape it actually has (projecting first lets strict branches accept values carrying extra keys).
    for (const { option, node } of branches) {
      const candidate = node(v, path, undefined);
      if (candidate !== DROP && option.safeParse(candidate).success) return node(v, path, withheld);
    }
    return drop(path, withheld);
  };
}

function intersectionNode(left: ProjectNode, right: ProjectNode): ProjectNode {
  return (v, path, withheld) => {
    const a = left(v, path, undefined);
    const b = right(v, path, undefined);
    if (a === DROP || b === DROP) return drop(path, withheld);
    if (isPlainObject(a) && isPlainObject(b)) return { ...a, ...b };
    return a;
  };
}

function lazyNode(getter: () => z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  let node: ProjectNode | undefined;
  return (v, path, withheld) => {
    node ??= compileNode(getter(), memo);
    return node(v, path, withheld);
  };
}
