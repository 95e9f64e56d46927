import { CoreResourceOperation, ResourcePrimaryScope } from '@wildo/shared-lib';
import type { OperationHttpBinding, OperationTarget } from './compiled-resource.types.js';

/** `knowledge_documents` / `knowledgeDocuments` → `knowledge-documents`. */
export function toKebab(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase();
}

/** The singular noun of a plural type, used in generated contracts (`todos` → `todo`). */
export function defaultSingular(type: string): string {
  if (type.endsWith('ies')) return `${type.slice(0, -3)}y`;
  if (type.endsWith('s') && !type.endsWith('ss')) return type.slice(0, -1);
  return type;
}

/** Top-level URL segments the engine serves itself; resources cannot take them. */
export const RESERVED_TOP_SEGMENTS = new Set([
  'auth',
  'organizations',
  'health',
  'oauth',
  'mcp',
  'a2a',
  'users',
  'files',
  'flows-actors',
  'invitations',
]);
/** Segments below `/organizations/:organizationId` the engine serves itself. */
export const RESERVED_ORG_SEGMENTS = new Set(['members', 'invitations', 'flows-actors', 'resource-descriptions']);

/** Collection path below `/api/v1` for a scope and segment. */
export function collectionPath(scope: ResourcePrimaryScope, segment: string): string {
  return scope === ResourcePrimaryScope.ORGANIZATIONS ? `/organizations/:organizationId/${segment}` : `/${segment}`;
}

/** Where a core operation is addressed and whether it needs a record id. */
export function coreBinding(
  operation: CoreResourceOperation,
  base: string,
): { target: OperationTarget; http: OperationHttpBinding } {
  switch (operation) {
    case CoreResourceOperation.CREATE:
      return { target: 'collection', http: { method: 'POST', path: base } };
    case CoreResourceOperation.LIST:
      return { target: 'collection', http: { method: 'GET', path: base } };
    case CoreResourceOperation.SEARCH:
      return { target: 'collection', http: { method: 'POST', path: `${base}/search` } };
    case CoreResourceOperation.READ:
      return { target: 'instance', http: { method: 'GET', path: `${base}/:id` } };
    case CoreResourceOperation.UPDATE:
      return { target: 'instance', http: { method: 'PUT', path: `${base}/:id` } };
    case CoreResourceOperation.DELETE:
      return { target: 'instance', http: { method: 'DELETE', path: `${base}/:id` } };
  }
}

/** Where a custom operation is addressed, with the methods it declares (POST by default; the first is documented). */
export function customBinding(
  target: OperationTarget,
  base: string,
  key: string,
  methods: readonly ('POST' | 'PUT')[] = ['POST'],
): OperationHttpBinding {
  const [method = 'POST', ...alsoAccepts] = methods;
  return {
    method,
    path: target === 'collection' ? `${base}/${key}` : `${base}/:id/${key}`,
    ...(alsoAccepts.length > 0 ? { alsoAccepts } : {}),
  };
}

/** `todos.read`, or `todos.read#admin` for a named variant. */
export function servicePathOf(type: string, operation: string, variantKey?: string): string {
  return variantKey ? `${type}.${operation}#${variantKey}` : `${type}.${operation}`;
}
