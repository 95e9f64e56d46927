import { tenantCondition, type TenantScope } from '../../persistence/index.js';
import { RAG_CHUNKS_TABLE as CHUNKS } from '../rag.migrations.js';

/** Named parameters of the retrieval statements. */
export type RetrievalParam =
  | 'resourceType'
  | 'scopeId'
  | 'ownerId'
  | 'query'
  | 'vector'
  | 'provider'
  | 'model'
  | 'dims'
  | 'limit';

/** A statement's text and how to order its parameters. */
export interface RetrievalStatement {
  readonly text: string;
  bind(values: Partial<Record<RetrievalParam, unknown>>): unknown[];
}

function compile(build: (param: (name: RetrievalParam) => string) => string): RetrievalStatement {
  const names: RetrievalParam[] = [];
  const text = build((name) => {
    const index = names.indexOf(name);
    if (index >= 0) return `$${index + 1}`;
    names.push(name);
    return `$${names.length}`;
  });
  return { text, bind: (values) => names.map((name) => values[name] ?? null) };
}

const cache = new Map<string, RetrievalStatement>();
function cached(key: string, build: (param: (name: RetrievalParam) => string) => string): RetrievalStatement {
  let statement = cache.get(key);
  if (!statement) {
    statement = compile(build);
    cache.set(key, statement);
  }
  return statement;
}

const COLUMNS = 'resource_id, field, chunk_index, header, content';

/**
 * The lexical arm: PostgreSQL full-text search over the chunks of one corpus. The tenant (and owner) condition
 * is the resource store's own, in the WHERE clause, so rows of other tenants are never ranked, counted or
 * limited. The question's words are OR-ed (any word may match; more matches rank higher).
 */
export function lexicalStatement(kind: TenantScope['kind'], owner: boolean): RetrievalStatement {
  return cached(`lexical:${kind}:${owner}`, (p) => {
    const query = `replace(plainto_tsquery('english'::regconfig, ${p('query')}::text)::text, ' & ', ' | ')::tsquery`;
    return `SELECT ${COLUMNS}, ts_rank(search, q.query) AS score
FROM ${CHUNKS}, (SELECT ${query} AS query) AS q
WHERE resource_type = ${p('resourceType')} AND ${tenantCondition(kind, p, owner)} AND search @@ q.query
ORDER BY score DESC, resource_id, field, chunk_index LIMIT ${p('limit')}::int4`;
  });
}

/**
 * The vector arm: pgvector cosine distance over the chunks of one corpus embedded under the current binding
 * (vectors of another provider, model or length are stale and skipped), with the same tenant condition.
 */
export function vectorStatement(kind: TenantScope['kind'], owner: boolean): RetrievalStatement {
  return cached(`vector:${kind}:${owner}`, (p) => {
    return `SELECT ${COLUMNS}, 1 - (embedding <=> ${p('vector')}::vector) AS score
FROM ${CHUNKS}
WHERE resource_type = ${p('resourceType')} AND ${tenantCondition(kind, p, owner)} AND embedding IS NOT NULL
  AND embedding_provider = ${p('provider')} AND embedding_model = ${p('model')} AND embedding_dims = ${p('dims')}::int4
ORDER BY embedding <=> ${p('vector')}::vector, resource_id, field, chunk_index LIMIT ${p('limit')}::int4`;
  });
}

/** A chunk as both arms return it. */
export interface ChunkHitRow {
  resource_id: string;
  field: string;
  chunk_index: number;
  header: string;
  content: string;
  score: number | string;
}
