import { FrameworkError, type InputProblem } from '../errors/index.js';
import type { ResourceStoreDefinition, StoreFilterField, StoreFilters, TenantScope } from './resource-store.js';

/**
 * Checks of what callers hand the store. The dispatcher validates client input first; these are the
 * store's own guard, so a bad value is refused as a client error (never a 500, never echoed) and an
 * impossible scope fails closed.
 */

/** Largest page a list or search may ask for. */
export const MAX_PAGE_LIMIT = 1000;
/** Longest search text accepted. */
export const MAX_SEARCH_TEXT_LENGTH = 1000;
/** Longest record id accepted. */
export const MAX_RECORD_ID_LENGTH = 200;

function invalidInput(problem: InputProblem): FrameworkError {
  return new FrameworkError('VALIDATION_FAILED', 'The request is not valid.', {
    reason: 'input_invalid',
    problems: [problem],
  });
}

/** The id a scope names (undefined for the application scope); refuses an empty or missing one. */
export function scopeIdOf(scope: TenantScope): string | undefined {
  switch (scope.kind) {
    case 'application':
      return undefined;
    case 'organization':
      return requireScopeId(scope.kind, scope.organizationId);
    case 'user':
      return requireScopeId(scope.kind, scope.userId);
    default:
      throw new Error('Unknown tenant scope kind.');
  }
}

/** A scope without its id would match nothing or, worse, everything: a programming error, refused closed. */
function requireScopeId(kind: string, id: unknown): string {
  if (typeof id !== 'string' || id === '') throw new Error(`A ${kind} scope needs a non-empty id.`);
  return id;
}

/** Refuses a page size that is not an integer in 1..MAX_PAGE_LIMIT. */
export function assertPageLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw invalidInput({ path: 'limit', expected: `an integer from 1 to ${MAX_PAGE_LIMIT}` });
  }
}

/** Refuses a record id that is empty or too long. */
export function assertRecordId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_RECORD_ID_LENGTH) {
    throw invalidInput({ path: 'id', expected: `a non-empty string of at most ${MAX_RECORD_ID_LENGTH} characters` });
  }
}

/** Refuses an expected version that no record can have. */
export function assertExpectedVersion(version: unknown): asserts version is number {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > 2_147_483_647) {
    throw invalidInput({ path: 'expectedVersion', expected: 'a positive integer' });
  }
}

/** Refuses search text longer than {@link MAX_SEARCH_TEXT_LENGTH}. */
export function assertSearchText(text: unknown): asserts text is string {
  if (typeof text !== 'string' || text.length > MAX_SEARCH_TEXT_LENGTH) {
    throw invalidInput({ path: 'text', expected: `a string of at most ${MAX_SEARCH_TEXT_LENGTH} characters` });
  }
}

function matchesKind(field: StoreFilterField, value: unknown): boolean {
  if (value === null) return true;
  if (field.kind === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === field.kind;
}

/** A declared filter field by name, or a refusal naming only the parameter (not the submitted key). */
export function declaredFilterField(definition: ResourceStoreDefinition, name: string, path: string): StoreFilterField {
  const field = definition.filterFields.find((candidate) => candidate.name === name);
  if (field === undefined) throw invalidInput({ path, expected: 'a declared filter field' });
  return field;
}

/** The JSON containment document of the filters, or undefined when there are none. */
export function filterDocument(definition: ResourceStoreDefinition, filters: StoreFilters): string | undefined {
  // An absent value (a query parameter the client left out) is no filter, not a refusal.
  const entries = Object.entries(filters).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  for (const [name, value] of entries) {
    const field = declaredFilterField(definition, name, 'filters');
    if (!matchesKind(field, value))
      throw invalidInput({ path: `filters.${field.name}`, expected: `a ${field.kind} or null` });
  }
  return JSON.stringify(Object.fromEntries(entries));
}
