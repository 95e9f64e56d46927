import { z_html, z_image, z_webPage } from '@wildo/shared-lib';
import { z } from 'zod';
import { CDL_SEMANTIC_TYPES, type CdlField, type CdlResource } from './cdl-documents.schema.js';

const SEMANTIC_TYPES = new Set<string>(CDL_SEMANTIC_TYPES);
const RESOURCE_NAME = /^([a-z][a-z0-9-]*\.)?[A-Z][A-Za-z0-9]*$/;

/** Where a field is read: a capability's input (strict, refused when wrong) or an output (projected). */
export type FieldDirection = 'input' | 'output';

/** What building a field's schema needs: the manifest's resources, the capability's namespace and origins. */
export interface FieldContext {
  resources: ReadonlyMap<string, CdlResource>;
  namespace: string;
  direction: FieldDirection;
  origins: { images?: readonly string[]; pages?: readonly string[] };
  /** Reports a problem at a path inside the document being read. */
  report(path: string, message: string): void;
}

const isoDate = () => z.iso.date();
const count = () => z.number().int().min(0).max(99);

/** The schema of a semantic type; undefined (and a problem) for one the direction does not admit. */
function semantic(type: string, field: CdlField, path: string, ctx: FieldContext): z.ZodType | undefined {
  const input = ctx.direction === 'input';
  const object = input ? z.strictObject : z.object;
  switch (type) {
    case 'identifier':
      return z.string().min(1).max(200);
    case 'text':
    case 'string':
    case 'location':
      return input ? z.string().min(1).max(2_000) : z.string();
    case 'date':
      return isoDate();
    case 'datetime':
      return z.iso.datetime({ offset: true });
    case 'date-range':
      return object({ from: isoDate(), to: isoDate() });
    case 'party':
      return object({ adults: count(), children: count().optional() });
    case 'money':
      return object({ amount: input ? z.number().min(0) : z.number(), currency: z.string().regex(/^[A-Z]{3}$/) });
    case 'quantity':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'preference-set':
      return z.array(z.string().min(1).max(64)).max(20);
    case 'enum':
      if (!field.values) {
        ctx.report(`${path}.values`, 'an enum lists its values: values: [a, b]');
        return undefined;
      }
      return z.enum(field.values as [string, ...string[]]);
    case 'image':
    case 'web-page':
    case 'html':
      return governed(type, path, ctx);
    default:
      return undefined;
  }
}

/** An image, page or HTML output, checked against the binding's declared origins. */
function governed(type: 'image' | 'web-page' | 'html', path: string, ctx: FieldContext): z.ZodType | undefined {
  if (ctx.direction === 'input') {
    ctx.report(path, `${type} is an output type; take a text or identifier input instead`);
    return undefined;
  }
  const images = ctx.origins.images ?? [];
  const pages = ctx.origins.pages ?? [];
  if (type === 'html') return z_html({ origins: { images, pages } });
  const origins = type === 'image' ? images : pages;
  if (origins.length === 0) {
    ctx.report(
      path,
      `declare where ${type} values may point: origins.${type === 'image' ? 'images' : 'pages'} in the binding`,
    );
    return undefined;
  }
  return type === 'image' ? z_image({ origins }) : z_webPage({ origins });
}

/** The resource a name refers to: qualified (`wanderlust.Stay`), or bare in the capability's namespace. */
export function resolveResource(name: string, ctx: Pick<FieldContext, 'resources' | 'namespace'>): string | undefined {
  const qualified = name.includes('.') ? name : `${ctx.namespace}.${name}`;
  return ctx.resources.has(qualified) ? qualified : undefined;
}

/** The object schema of a resource, built anew for each use (origins differ per binding); cycles are refused. */
export function resourceSchema(
  name: string,
  path: string,
  ctx: FieldContext,
  stack: readonly string[] = [],
): z.ZodType | undefined {
  const qualified = resolveResource(name, ctx);
  const resource = qualified ? ctx.resources.get(qualified) : undefined;
  if (!qualified || !resource) {
    ctx.report(
      path,
      `no resource named ${name}; declare ${name.includes('.') ? name : `${ctx.namespace}.${name}`} in a *.resource.yaml`,
    );
    return undefined;
  }
  if (stack.includes(qualified)) {
    ctx.report(path, `${qualified} contains itself (${[...stack, qualified].join(' → ')}); a result is a tree`);
    return undefined;
  }
  const schema = objectSchema(resource.fields, path, { ...ctx, namespace: qualified.split('.')[0] as string }, [
    ...stack,
    qualified,
  ]);
  return resource.description ? schema?.describe(resource.description) : schema;
}

/** The schema of one field, optional unless `required` (default true), described. */
export function fieldSchema(
  field: CdlField,
  path: string,
  ctx: FieldContext,
  stack: readonly string[] = [],
): z.ZodType | undefined {
  let schema: z.ZodType | undefined;
  if (field.collection !== undefined) {
    const item = resourceSchema(field.collection, `${path}.collection`, ctx, stack);
    schema = item && z.array(item);
  } else if (field.list !== undefined) {
    const item = semantic(field.list, field, `${path}.list`, ctx);
    schema = item && z.array(item);
  } else if (field.ref !== undefined) {
    if (!resolveResource(field.ref, ctx)) ctx.report(`${path}.ref`, `no resource named ${field.ref}`);
    schema = z.string().min(1).max(200);
  } else if (field.type !== undefined) {
    if (SEMANTIC_TYPES.has(field.type)) schema = semantic(field.type, field, `${path}.type`, ctx);
    else if (RESOURCE_NAME.test(field.type)) schema = resourceSchema(field.type, `${path}.type`, ctx, stack);
    else
      ctx.report(
        `${path}.type`,
        `"${field.type}" is neither a semantic type (${CDL_SEMANTIC_TYPES.join(', ')}) nor a resource name`,
      );
  }
  if (!schema) return undefined;
  if (field.description) schema = schema.describe(field.description);
  return field.required === false ? schema.optional() : schema;
}

/** The object schema of a field list (strict for an input). */
export function objectSchema(
  fields: Readonly<Record<string, CdlField>>,
  path: string,
  ctx: FieldContext,
  stack: readonly string[] = [],
): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = {};
  let complete = true;
  for (const [name, field] of Object.entries(fields)) {
    const schema = fieldSchema(field, `${path}.${name}`, ctx, stack);
    if (schema) shape[name] = schema;
    else complete = false;
  }
  if (!complete) return undefined;
  return ctx.direction === 'input' ? z.strictObject(shape) : z.object(shape);
}
