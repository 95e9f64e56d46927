import type { SqlMigration } from '../persistence/index.js';

/** The chunks table: its name is used by ingestion, maintenance and retrieval. */
export const RAG_CHUNKS_TABLE = 'wildo_rag_chunks';
/** One row per corpus field of a record: what was ingested, with which stamps, and whether it failed. */
export const RAG_SOURCES_TABLE = 'wildo_rag_sources';

/**
 * RAG chunks live in the resource's own database. Each chunk carries the tenant stamps of its record
 * (organization, user, creator), so retrieval applies the store's own tenant and owner conditions to it before
 * ranking. `search` is generated (English configuration: stemming and stop words suit questions); the vector
 * column is added at start only where pgvector is installed (see `ensureVectorColumn`).
 */
export const RAG_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0501_rag_chunks_and_sources',
    sql: `
CREATE TABLE ${RAG_SOURCES_TABLE} (
  resource_type text NOT NULL,
  resource_id text NOT NULL,
  field text NOT NULL,
  kind text NOT NULL,
  organization_id text,
  user_id text,
  created_by_user_id text,
  source_hash text NOT NULL,
  chunking_hash text NOT NULL,
  file_ids text[],
  status text NOT NULL,
  failure_reason text,
  retryable boolean NOT NULL DEFAULT false,
  chunk_count integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (resource_type, resource_id, field)
);
CREATE INDEX ${RAG_SOURCES_TABLE}_pending_idx ON ${RAG_SOURCES_TABLE} (status) WHERE status <> 'indexed';
CREATE TABLE ${RAG_CHUNKS_TABLE} (
  resource_type text NOT NULL,
  resource_id text NOT NULL,
  field text NOT NULL,
  chunk_index integer NOT NULL,
  organization_id text,
  user_id text,
  created_by_user_id text,
  header text NOT NULL,
  content text NOT NULL,
  content_hash text NOT NULL,
  chunking_hash text NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, header || ' ' || content)) STORED,
  embedding_provider text,
  embedding_model text,
  embedding_dims integer,
  embedded_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (resource_type, resource_id, field, chunk_index)
);
CREATE INDEX ${RAG_CHUNKS_TABLE}_search_idx ON ${RAG_CHUNKS_TABLE} USING gin (search);
CREATE INDEX ${RAG_CHUNKS_TABLE}_org_idx ON ${RAG_CHUNKS_TABLE} (resource_type, organization_id);
CREATE INDEX ${RAG_CHUNKS_TABLE}_user_idx ON ${RAG_CHUNKS_TABLE} (resource_type, user_id);
`,
  },
  {
    // Which bound a refused file met (inflated bytes, compression ratio, memory, time, ...), beside its reason.
    id: '0502_rag_source_failure_detail',
    sql: `ALTER TABLE ${RAG_SOURCES_TABLE} ADD COLUMN failure_detail text;`,
  },
];
