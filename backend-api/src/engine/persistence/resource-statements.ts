import type { ResourceStoreDefinition, StoredRecord, TenantScope } from './resource-store.js';
import { quoteIdentifier, resourceTableNames, validateDefinitionFields } from './resource-table-schema.js';

/**
 * The SQL text of every store operation, built once per definition and variant and then reused:
 * the hot paths (findById, list) only look a statement up and bind values. Every statement
 * carries the tenant scope condition; there is no variant without it.
 */

/** Named parameters; a statement binds them in the order its text numbered them. */
export type ParamName =
  | 'scopeId'
  | 'id'
  | 'ownerId'
  | 'filter'
  | 'afterSeq'
  | 'limit'
  | 'offset'
  | 'text'
  | 'field'
  | 'expectedVersion'
  | 'data'
  | 'now'
  | 'creatorUserId'
  | 'creatorType'
  | 'creatorId';

/** Values by parameter name. */
export type ParamValues = Partial<Record<ParamName, unknown>>;

/** A statement's text and how to order its parameters. */
export interface Statement {
  readonly text: string;
  bind(values: ParamValues): unknown[];
}

type Param = (name: ParamName) => string;

/** Builds a statement; `param(name)` numbers each name once, so a name used twice shares its `$n`. */
function compile(build: (param: Param) => string): Statement {
  const names: ParamName[] = [];
  const text = build((name) => {
    const index = names.indexOf(name);
    if (index >= 0) return `$${index + 1}`;
    names.push(name);
    return `$${names.length}`;
  });
  return { text, bind: (values) => names.map((name) => values[name] ?? null) };
}

/** A row of a resource table as both drivers return it (int8 as string, timestamptz as Date). */
export interface ResourceRow {
  id: string;
  seq: string;
  organization_id: string | null;
  user_id: string | null;
  created_by_user_id: string | null;
  created_by_type: string;
  created_by_id: string;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
  data: Record<string, unknown>;
}

const INSERT_COLUMNS =
  'id, organization_id, user_id, created_by_user_id, created_by_type, created_by_id, created_at, updated_at, version, data';
const RECORD_COLUMNS =
  'id, seq, organization_id, user_id, created_by_user_id, created_by_type, created_by_id, created_at, updated_at, version, data';

function isoString(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Maps a row to the contract's record shape (timestamps as ISO strings). */
export function toStoredRecord(row: ResourceRow): StoredRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    createdByUserId: row.created_by_user_id,
    createdByPrincipal: { type: row.created_by_type, id: row.created_by_id },
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
    data: row.data,
  };
}

/** The condition that confines a statement to one tenant. */
function scopeCondition(kind: TenantScope['kind'], param: Param): string {
  switch (kind) {
    case 'application':
      return 'organization_id IS NULL AND user_id IS NULL';
    case 'organization':
      return `organization_id = ${param('scopeId')}`;
    case 'user':
      return `user_id = ${param('scopeId')}`;
    default:
      throw new Error(`Unknown tenant scope kind "${String(kind)}".`);
  }
}

interface WhereOptions {
  owner?: boolean;
  filter?: boolean;
}

function whereClause(kind: TenantScope['kind'], param: Param, options: WhereOptions): string {
  const conditions = [scopeCondition(kind, param)];
  if (options.owner) conditions.push(`created_by_user_id = ${param('ownerId')}`);
  if (options.filter) conditions.push(`data @> ${param('filter')}::jsonb`);
  return conditions.join(' AND ');
}

/**
 * The tenant (and owner) condition every store statement carries, for other statements over rows stamped with
 * the same columns (`organization_id`, `user_id`, `created_by_user_id`): RAG chunks are filtered by it.
 */
export function tenantCondition(
  kind: TenantScope['kind'],
  param: (name: 'scopeId' | 'ownerId') => string,
  owner: boolean,
): string {
  return whereClause(kind, param as Param, { owner });
}

const TSQUERY = (param: Param): string => `websearch_to_tsquery('simple'::regconfig, ${param('text')}::text)`;

/** The statements of one resource type. Construction validates the definition (names, lengths). */
export class ResourceStatements {
  readonly table: string;
  private readonly cache = new Map<string, Statement>();

  constructor(readonly definition: ResourceStoreDefinition) {
    validateDefinitionFields(definition);
    this.table = quoteIdentifier(resourceTableNames(definition.resourceType).table);
  }

  private cached(key: string, build: (param: Param) => string): Statement {
    let statement = this.cache.get(key);
    if (statement === undefined) {
      statement = compile(build);
      this.cache.set(key, statement);
    }
    return statement;
  }

  insert(kind: TenantScope['kind']): Statement {
    return this.cached(`insert:${kind}`, (p) => {
      const id = p('id'); // numbered first, so $1 is the id in every variant
      const tenant =
        kind === 'organization' ? `${p('scopeId')}, NULL` : kind === 'user' ? `NULL, ${p('scopeId')}` : 'NULL, NULL';
      const creator = `${p('creatorUserId')}, ${p('creatorType')}, ${p('creatorId')}`;
      const times = `${p('now')}::timestamptz, ${p('now')}::timestamptz`;
      return `INSERT INTO ${this.table} (${INSERT_COLUMNS})
VALUES (${id}, ${tenant}, ${creator}, ${times}, 1, ${p('data')}::jsonb)
RETURNING ${RECORD_COLUMNS}`;
    });
  }

  findById(kind: TenantScope['kind'], owner: boolean): Statement {
    return this.cached(
      `find:${kind}:${owner}`,
      (p) => `SELECT ${RECORD_COLUMNS} FROM ${this.table} WHERE id = ${p('id')} AND ${whereClause(kind, p, { owner })}`,
    );
  }

  /** The tenant columns of a record, whatever its tenant (credential resolution only). */
  locate(): Statement {
    return this.cached('locate', (p) => `SELECT organization_id, user_id FROM ${this.table} WHERE id = ${p('id')}`);
  }

  /** Current version of a record, to tell `not_found` from `version_conflict` after a refused write. */
  probe(kind: TenantScope['kind'], owner: boolean): Statement {
    return this.cached(
      `probe:${kind}:${owner}`,
      (p) => `SELECT version FROM ${this.table} WHERE id = ${p('id')} AND ${whereClause(kind, p, { owner })}`,
    );
  }

  list(kind: TenantScope['kind'], owner: boolean, filter: boolean, after: boolean): Statement {
    return this.cached(`list:${kind}:${owner}:${filter}:${after}`, (p) => {
      const keyset = after ? ` AND seq < ${p('afterSeq')}::bigint` : '';
      return `SELECT ${RECORD_COLUMNS} FROM ${this.table} WHERE ${whereClause(kind, p, { owner, filter })}${keyset}
ORDER BY seq DESC LIMIT ${p('limit')}::int4`;
    });
  }

  /** Ranked when `ranked` (the type has search fields and the text is not blank), else newest first. */
  search(kind: TenantScope['kind'], owner: boolean, filter: boolean, ranked: boolean): Statement {
    return this.cached(`search:${kind}:${owner}:${filter}:${ranked}`, (p) => {
      const where = whereClause(kind, p, { owner, filter });
      const match = ranked ? ` AND search @@ ${TSQUERY(p)}` : '';
      const order = ranked ? `ts_rank(search, ${TSQUERY(p)}) DESC, seq DESC` : 'seq DESC';
      return `SELECT ${RECORD_COLUMNS} FROM ${this.table} WHERE ${where}${match}
ORDER BY ${order} LIMIT ${p('limit')}::int4 OFFSET ${p('offset')}::int4`;
    });
  }

  /** Counts per JSON value of a field; a missing field counts as JSON null. */
  countBy(kind: TenantScope['kind'], filter: boolean): Statement {
    return this.cached(`count:${kind}:${filter}`, (p) => {
      return `SELECT coalesce(data -> ${p('field')}::text, 'null'::jsonb) AS value, count(*) AS count
FROM ${this.table} WHERE ${whereClause(kind, p, { filter })} GROUP BY 1`;
    });
  }

  update(kind: TenantScope['kind'], owner: boolean): Statement {
    return this.cached(`update:${kind}:${owner}`, (p) => {
      return `UPDATE ${this.table} SET data = ${p('data')}::jsonb, version = version + 1, updated_at = ${p('now')}::timestamptz
WHERE id = ${p('id')} AND ${whereClause(kind, p, { owner })} AND version = ${p('expectedVersion')}::int4
RETURNING ${RECORD_COLUMNS}`;
    });
  }

  delete(kind: TenantScope['kind'], owner: boolean, versioned: boolean): Statement {
    return this.cached(`delete:${kind}:${owner}:${versioned}`, (p) => {
      const version = versioned ? ` AND version = ${p('expectedVersion')}::int4` : '';
      return `DELETE FROM ${this.table} WHERE id = ${p('id')} AND ${whereClause(kind, p, { owner })}${version}
RETURNING ${RECORD_COLUMNS}`;
    });
  }
}

const statementsByDefinition = new WeakMap<ResourceStoreDefinition, ResourceStatements>();

/** The statements of a definition, built on first use and kept as long as the definition object lives. */
export function statementsFor(definition: ResourceStoreDefinition): ResourceStatements {
  let statements = statementsByDefinition.get(definition);
  if (statements === undefined) {
    statements = new ResourceStatements(definition);
    statementsByDefinition.set(definition, statements);
  }
  return statements;
}
