import { createHash } from 'node:crypto';
import type { ResourceStoreDefinition } from './resource-store.js';

/**
 * Pure table layout of a resource type: names, DDL and the hash that tells `ensureSchema` whether
 * the table must change. Every identifier and literal here comes from validated definitions only.
 */

/** PostgreSQL truncates identifiers longer than this many bytes (NAMEDATALEN - 1). */
export const MAX_IDENTIFIER_BYTES = 63;

/** Bumped when the table layout changes in a way that needs the search column rebuilt. */
const LAYOUT_VERSION = 1;

const RESOURCE_TYPE = /^[a-z][a-z0-9_-]{0,62}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const INDEX_SUFFIXES = ['_org_seq_idx', '_user_seq_idx', '_app_seq_idx', '_data_idx', '_search_idx'] as const;
const LONGEST_SUFFIX = Math.max(...INDEX_SUFFIXES.map((suffix) => suffix.length));

/** Names of one resource table and its indexes. */
export interface ResourceTableNames {
  table: string;
  orgIndex: string;
  userIndex: string;
  appIndex: string;
  dataIndex: string;
  searchIndex: string;
}

/** Quotes an identifier (names are validated already; quoting keeps reserved words harmless). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a string literal (`standard_conforming_strings` is on in every supported server). */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function definitionError(resourceType: string, problem: string): Error {
  return new Error(`Resource type "${resourceType}": ${problem}`);
}

/** Table name of a resource type: `r_` + the type with `-` mapped to `_`. Throws when it cannot be one. */
export function resourceTableName(resourceType: string): string {
  if (!RESOURCE_TYPE.test(resourceType)) {
    const rule = 'the type must match ^[a-z][a-z0-9_-]{0,62}$ (a lowercase letter, then letters, digits, _ or -).';
    throw definitionError(resourceType, rule);
  }
  const table = `r_${resourceType.replace(/-/g, '_')}`;
  const longest = Buffer.byteLength(table) + LONGEST_SUFFIX;
  if (longest > MAX_IDENTIFIER_BYTES) {
    const maxTypeLength = MAX_IDENTIFIER_BYTES - LONGEST_SUFFIX - 2;
    throw definitionError(
      resourceType,
      `its table and index names would exceed PostgreSQL's ${MAX_IDENTIFIER_BYTES}-byte identifier limit. Use a type of at most ${maxTypeLength} characters.`,
    );
  }
  return table;
}

/** Table and index names of a resource type. */
export function resourceTableNames(resourceType: string): ResourceTableNames {
  const table = resourceTableName(resourceType);
  return {
    table,
    orgIndex: `${table}_org_seq_idx`,
    userIndex: `${table}_user_seq_idx`,
    appIndex: `${table}_app_seq_idx`,
    dataIndex: `${table}_data_idx`,
    searchIndex: `${table}_search_idx`,
  };
}

/** Checks a definition's field names (they become SQL literals in the search column). */
export function validateDefinitionFields(definition: ResourceStoreDefinition): void {
  const fields = [...definition.searchFields, ...definition.filterFields.map((field) => field.name)];
  const invalid = fields.find((field) => !FIELD_NAME.test(field));
  if (invalid !== undefined) {
    throw definitionError(
      definition.resourceType,
      `field name "${invalid}" must match ${FIELD_NAME.source} to be filtered or searched.`,
    );
  }
}

/** Hash of what the table's DDL depends on (the layout and the searched fields, in order). */
export function definitionSchemaHash(definition: ResourceStoreDefinition): string {
  const shape = JSON.stringify({ layout: LAYOUT_VERSION, searchFields: definition.searchFields });
  return createHash('sha256').update(shape).digest('hex');
}

/** Weight per field position: earlier fields (a title) rank above later ones (a body). */
function searchWeight(position: number): string {
  return ['A', 'B', 'C'][position] ?? 'D';
}

/** The generated tsvector expression over `searchFields` (immutable: the config is a regconfig constant). */
export function searchVectorExpression(searchFields: readonly string[]): string {
  return searchFields
    .map((field, position) => {
      const text = `coalesce(data ->> ${quoteLiteral(field)}, '')`;
      return `setweight(to_tsvector('simple'::regconfig, ${text}), '${searchWeight(position)}')`;
    })
    .join(' || ');
}

/** DDL creating the table and its scope and data indexes (idempotent; no search column). */
export function createTableSql(names: ResourceTableNames): string {
  const table = quoteIdentifier(names.table);
  return `CREATE TABLE IF NOT EXISTS ${table} (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text,
  user_id text,
  created_by_user_id text,
  created_by_type text NOT NULL,
  created_by_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  version integer NOT NULL,
  data jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS ${quoteIdentifier(names.orgIndex)} ON ${table} (organization_id, seq DESC) WHERE organization_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS ${quoteIdentifier(names.userIndex)} ON ${table} (user_id, seq DESC) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS ${quoteIdentifier(names.appIndex)} ON ${table} (seq DESC) WHERE organization_id IS NULL AND user_id IS NULL;
CREATE INDEX IF NOT EXISTS ${quoteIdentifier(names.dataIndex)} ON ${table} USING gin (data jsonb_path_ops);`;
}

/** DDL replacing the generated search column (and its index) to match `searchFields`; none when empty. */
export function rebuildSearchSql(names: ResourceTableNames, searchFields: readonly string[]): string {
  const table = quoteIdentifier(names.table);
  const drop = `ALTER TABLE ${table} DROP COLUMN IF EXISTS search;`;
  if (searchFields.length === 0) return drop;
  return `${drop}
ALTER TABLE ${table} ADD COLUMN search tsvector GENERATED ALWAYS AS (${searchVectorExpression(searchFields)}) STORED;
CREATE INDEX IF NOT EXISTS ${quoteIdentifier(names.searchIndex)} ON ${table} USING gin (search);`;
}
