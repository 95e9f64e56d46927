import { governedOutputRegistry, type GovernedOutput } from '@wildo/shared-lib';
import type { z } from 'zod';
import type { InvalidField } from '../errors/index.js';
import { defOf, isOmittable, unwrapTransparent } from '../resources/schema/index.js';
import { checkHtml } from './html-check.js';
import { checkUrl, originSet } from './origins.js';
import type { WithheldReason, WithheldValue } from './withheld.js';

/** Marker for "this value does not leave": the caller drops it (the report says why). */
const DROP: unique symbol = Symbol('drop');
/** A projected value, or {@link DROP} (which `unknown` already admits). */
type Projected = unknown;

/**
 * What one projection found: values withheld (the result stays, without them) and breaches of the contract (the
 * result cannot be passed on at all). Paths name declared places only.
 */
export interface ProjectionReport {
  withheld: WithheldValue[];
  /** Required declared fields the value left out. */
  missing: string[];
  /** Declared fields whose value has the wrong type. */
  invalid: InvalidField[];
}

/** An empty {@link ProjectionReport}. */
export function newProjectionReport(): ProjectionReport {
  return { withheld: [], missing: [], invalid: [] };
}

/** Whether the report holds a breach of the contract (missing or wrong-typed declared fields). */
export function breachesContract(report: ProjectionReport): boolean {
  return report.missing.length > 0 || report.invalid.length > 0;
}

type ProjectNode = (value: unknown, path: string, report: ProjectionReport) => Projected;

/** A compiled projection: keeps exactly what the schema declares, at every depth. */
export interface Projector {
  /**
   * The projected value (`undefined` when nothing remains); `report` receives what was withheld or broken, under
   * `path` when the value sits inside a larger result (`data[3]` for a record of a page).
   */
  project(value: unknown, report: ProjectionReport, path?: string): unknown;
}

/** Options of {@link compileProjector}. */
export interface ProjectorOptions {
  /**
   * Top-level keys the value may carry that are declared elsewhere as never returned (a resource's
   * `internalFields`): dropped like any undeclared key, but not reported as withheld on every answer.
   */
  internalKeys?: readonly string[];
}

/**
 * Compiles a schema into a projection, once per contract: the one projector every result of every surface passes.
 * It never throws and never rewrites a value. Undeclared keys are dropped (reported by their parent with `.*`, so
 * a report never repeats an undeclared name); image, web-page and HTML values that fail their origin or content
 * check are withheld by their position (`gallery.photos[3]`, list positions as received); a declared field of the
 * wrong type, or a required one left out, is a breach reported as `invalid` or `missing`.
 *
 * @example
 * const report = newProjectionReport();
 * const data = compileProjector(Schema).project(raw, report);
 * if (breachesContract(report)) throw contractViolation(report);
 */
export function compileProjector(schema: z.ZodType, options: ProjectorOptions = {}): Projector {
  const memo = new Map<z.ZodType, ProjectNode>();
  const rootObject = defOf(unwrapTransparent(schema));
  const root =
    options.internalKeys?.length && rootObject.type === 'object'
      ? objectNode(rootObject.shape ?? {}, memo, new Set(options.internalKeys))
      : compileNode(schema, memo);
  return {
    project(value, report, path = '') {
      const out = root(value, path, report);
      return out === DROP ? undefined : out;
    },
  };
}

function compileNode(schema: z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const cached = memo.get(schema);
  if (cached) return cached;
  // Recursive schemas: register a forwarder before compiling children.
  let compiled: ProjectNode | undefined;
  const forward: ProjectNode = (v, p, r) => (compiled as ProjectNode)(v, p, r);
  memo.set(schema, forward);
  compiled = buildNode(schema, memo);
  memo.set(schema, compiled);
  return compiled;
}

function buildNode(schema: z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const governed = governedOutputRegistry.get(schema);
      return governed ? governedNode(governed) : leaf('string', (v) => typeof v === 'string');
    }
    case 'number':
      return leaf('number', (v) => typeof v === 'number' && Number.isFinite(v));
    case 'boolean':
      return leaf('boolean', (v) => typeof v === 'boolean');
    case 'null':
      return leaf('null', (v) => v === null);
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return leaf('one of the declared values', (v) => allowed.has(v as string | number));
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return leaf('the declared value', (v) => allowed.has(v));
    }
    case 'template_literal':
      return leaf('a string of the declared form', (v) => typeof v === 'string' && schema.safeParse(v).success);
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
      return intersectionNode(def.left as z.ZodType, def.right as z.ZodType, memo);
    case 'lazy':
      return lazyNode(def.getter as () => z.ZodType, memo);
    case 'optional':
      return wrapperNode(compileNode(def.innerType as z.ZodType, memo), (v) => v === undefined);
    case 'nullable':
      return wrapperNode(compileNode(def.innerType as z.ZodType, memo), (v) => v === null);
    default:
      // default, prefault, readonly, catch, nonoptional: same JSON shape as their inner schema.
      if (def.innerType) return compileNode(def.innerType, memo);
      // Anything else (any, unknown, custom, ...) declares no shape: nothing of it leaves.
      return (_v, path, report) => withhold(path, 'undeclared', report);
  }
}

/** Removes a value the contract declares but the checks refuse, recording where and why. */
function withhold(path: string, reason: WithheldReason, report: ProjectionReport): typeof DROP {
  report.withheld.push({ path: path || '(root)', reason });
  return DROP;
}

/** Records a declared value of the wrong type (the caller gets a contract violation, never the value). */
function invalid(path: string, expected: string, report: ProjectionReport): typeof DROP {
  report.invalid.push({ field: path || '(root)', expected });
  return DROP;
}

function leaf(expected: string, accepts: (v: unknown) => boolean): ProjectNode {
  return (v, path, report) => (accepts(v) ? v : invalid(path, expected, report));
}

/** An image, web-page or HTML value: a string, passed unchanged only when its check finds nothing. */
function governedNode(governed: GovernedOutput): ProjectNode {
  let check: (value: string) => WithheldReason | null;
  if (governed.kind === 'html') {
    const origins = { images: originSet(governed.origins.images), pages: originSet(governed.origins.pages) };
    check = (value) => checkHtml(value, origins);
  } else {
    const origins = originSet(governed.origins);
    check = (value) => checkUrl(value, origins);
  }
  return (v, path, report) => {
    if (typeof v !== 'string') return invalid(path, 'string', report);
    const reason = check(v);
    return reason ? withhold(path, reason, report) : v;
  };
}

function wrapperNode(inner: ProjectNode, passes: (v: unknown) => boolean): ProjectNode {
  return (v, path, report) => (passes(v) ? v : inner(v, path, report));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const childPath = (path: string, key: string) => (path ? `${path}.${key}` : key);
const undeclaredAt = (path: string) => (path ? `${path}.*` : '*');

function objectNode(
  shape: Record<string, z.ZodType>,
  memo: Map<z.ZodType, ProjectNode>,
  internal?: ReadonlySet<string>,
): ProjectNode {
  const fields = Object.entries(shape).map(([key, child]) => ({
    key,
    node: compileNode(child, memo),
    required: !isOmittable(child),
  }));
  return (v, path, report) => {
    if (!isPlainObject(v)) return invalid(path, 'object', report);
    const out: Record<string, unknown> = {};
    let present = 0;
    for (const { key, node, required } of fields) {
      const own = Object.hasOwn(v, key);
      if (own) present++;
      const value = own ? v[key] : undefined;
      if (value === undefined) {
        if (required) report.missing.push(childPath(path, key));
        continue;
      }
      const projected = node(value, childPath(path, key), report);
      if (projected !== DROP && projected !== undefined) out[key] = projected;
    }
    // Counting keeps the common case (nothing undeclared) to one key listing per object.
    const keys = Object.keys(v);
    const undeclared =
      keys.length > present && (!internal || keys.some((k) => !internal.has(k) && !Object.hasOwn(shape, k)));
    if (undeclared) withhold(undeclaredAt(path), 'undeclared', report);
    return out;
  };
}

function arrayNode(element: ProjectNode): ProjectNode {
  return (v, path, report) => {
    if (!Array.isArray(v)) return invalid(path, 'array', report);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const projected = element(v[i], `${path}[${i}]`, report);
      if (projected !== DROP) out.push(projected);
    }
    return out;
  };
}

function tupleNode(items: ProjectNode[], rest: ProjectNode | null): ProjectNode {
  return (v, path, report) => {
    if (!Array.isArray(v)) return invalid(path, 'array', report);
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const node = items[i] ?? rest;
      if (!node) {
        withhold(`${path}[${i}]`, 'undeclared', report);
        break;
      }
      const projected = node(v[i], `${path}[${i}]`, report);
      // A tuple cannot lose a middle element without shifting the others: a dropped item is a breach, reported.
      if (projected === DROP) break;
      out.push(projected);
    }
    return out;
  };
}

function recordNode(keyType: z.ZodType | undefined, value: ProjectNode): ProjectNode {
  return (v, path, report) => {
    if (!isPlainObject(v)) return invalid(path, 'object', report);
    const out: Record<string, unknown> = {};
    let undeclared = false;
    for (const [key, item] of Object.entries(v)) {
      if (key === '__proto__' || (keyType && !keyType.safeParse(key).success)) {
        undeclared = true;
        continue;
      }
      const projected = value(item, `${path}{}`, report);
      if (projected !== DROP) out[key] = projected;
    }
    if (undeclared) withhold(undeclaredAt(path), 'undeclared', report);
    return out;
  };
}

function unionNode(options: z.ZodType[], memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const branches = options.map((option) => ({ option, node: compileNode(option, memo) }));
  return (v, path, report) => {
    // The first branch the value satisfies once projected, so an object is projected through the shape it actually
    // has (projecting first lets strict branches accept values carrying extra keys); the trial reports nothing.
    for (const { option, node } of branches) {
      const trial = newProjectionReport();
      const candidate = node(v, path, trial);
      if (candidate !== DROP && !breachesContract(trial) && option.safeParse(candidate).success)
        return node(v, path, report);
    }
    return invalid(path, 'one of the declared shapes', report);
  };
}

function intersectionNode(left: z.ZodType, right: z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  const l = defOf(unwrapTransparent(left));
  const r = defOf(unwrapTransparent(right));
  // Two object shapes make one object: projected as one, so neither side reports the other's fields as undeclared.
  if (l.type === 'object' && r.type === 'object') return objectNode({ ...l.shape, ...r.shape }, memo);
  const a = compileNode(left, memo);
  const b = compileNode(right, memo);
  return (v, path, report) => {
    const first = a(v, path, report);
    const second = b(v, path, report);
    if (first === DROP || second === DROP) return DROP;
    return isPlainObject(first) && isPlainObject(second) ? { ...first, ...second } : first;
  };
}

function lazyNode(getter: () => z.ZodType, memo: Map<z.ZodType, ProjectNode>): ProjectNode {
  let node: ProjectNode | undefined;
  return (v, path, report) => {
    node ??= compileNode(getter(), memo);
    return node(v, path, report);
  };
}
