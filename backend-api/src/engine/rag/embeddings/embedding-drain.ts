import { EmbeddingsProvider_TextPurpose } from '@wildo/shared-lib';
import type { BudgetTenant } from '../../agents/budgets/index.js';
import type { Logger } from '../../logging/index.js';
import type { SqlDatabase } from '../../persistence/index.js';
import { RAG_CHUNKS_TABLE as CHUNKS } from '../rag.migrations.js';
import type { EmbeddingsBackendService } from './embeddings-backend.service.js';
import type { EmbeddingsBinding } from './embeddings.types.js';
import { ensureVectorColumn, vectorLiteral } from './vector-column.js';

/** What one drain run did. `backlog` counts chunks without a vector of the current binding (missing or stale). */
export interface EmbeddingDrainSummary {
  status: 'ran' | 'absent' | 'misconfigured' | 'vector_unavailable' | 'failed';
  embedded: number;
  failed: number;
  backlogBefore: number;
  backlogAfter: number;
  binding?: EmbeddingsBinding;
  message?: string;
}

interface ChunkToEmbed {
  resource_type: string;
  resource_id: string;
  field: string;
  chunk_index: number;
  header: string;
  content: string;
  content_hash: string;
  organization_id: string | null;
  user_id: string | null;
}

const STALE = `(embedded_at IS NULL OR embedding_provider IS DISTINCT FROM $1 OR embedding_model IS DISTINCT FROM $2 OR embedding_dims IS DISTINCT FROM $3::int4)`;

/** Chunks whose vector is missing or of another binding than `binding` (all chunks when there is none). */
export async function embeddingBacklog(database: SqlDatabase, binding?: EmbeddingsBinding): Promise<number> {
  const { rows } = binding
    ? await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${CHUNKS} WHERE ${STALE}`, [
        binding.providerRef,
        binding.model,
        binding.dims,
      ])
    : await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${CHUNKS} WHERE embedded_at IS NULL`);
  return Number(rows[0]?.n ?? 0);
}

function tenantOf(chunk: ChunkToEmbed): BudgetTenant {
  if (chunk.organization_id !== null) return { kind: 'organization', organizationId: chunk.organization_id };
  if (chunk.user_id !== null) return { kind: 'user', userId: chunk.user_id };
  return { kind: 'application' };
}

/**
 * Fills or refreshes at most `batchSize` vectors: chunks without one, and chunks embedded under another
 * provider, model or dimension count (a model change makes every vector stale until this converges). Each
 * tenant's passages are embedded in their own call, so the tokens are charged to that tenant. A vector is
 * written only if its chunk's text is still the one embedded. An absent provider, a broken one or a database
 * without pgvector is reported, never papered over.
 */
export async function drainEmbeddings(
  deps: { database: SqlDatabase; embeddings: EmbeddingsBackendService; logger: Logger; now: () => Date },
  options: { batchSize: number },
): Promise<EmbeddingDrainSummary> {
  const { database, embeddings, logger } = deps;
  const resolution = embeddings.resolveBinding();
  const binding = resolution.status === 'bound' ? resolution.binding : undefined;
  const backlogBefore = await embeddingBacklog(database, binding);
  const summary = (status: EmbeddingDrainSummary['status'], extra: Partial<EmbeddingDrainSummary> = {}) => ({
    status,
    embedded: 0,
    failed: 0,
    backlogBefore,
    backlogAfter: backlogBefore,
    ...(binding ? { binding } : {}),
    ...extra,
  });
  if (!(await ensureVectorColumn(database))) {
    return summary('vector_unavailable', { message: 'The database has no pgvector: vectors cannot be stored.' });
  }
  if (resolution.status !== 'bound') return summary(resolution.status, { message: resolution.message });
  const { rows } = await database.query<ChunkToEmbed>(
    `SELECT resource_type, resource_id, field, chunk_index, header, content, content_hash, organization_id, user_id
FROM ${CHUNKS} WHERE ${STALE} ORDER BY embedded_at NULLS FIRST, created_at LIMIT $4::int4`,
    [resolution.binding.providerRef, resolution.binding.model, resolution.binding.dims, options.batchSize],
  );
  const byTenant = new Map<string, ChunkToEmbed[]>();
  for (const row of rows) {
    const key = JSON.stringify(tenantOf(row));
    byTenant.set(key, [...(byTenant.get(key) ?? []), row]);
  }
  let embedded = 0;
  let failed = 0;
  for (const chunks of byTenant.values()) {
    const first = chunks[0];
    if (!first) continue;
    try {
      const result = await embeddings.embedTexts({
        texts: chunks.map((chunk) => `${chunk.header}\n${chunk.content}`),
        purpose: EmbeddingsProvider_TextPurpose.CORPUS,
        applicability: 'RESOURCE_RETRIEVAL',
        tenant: tenantOf(first),
        traceContext: { attributes: { job: 'rag.embedding-drain' } },
      });
      // Stored under the binding's names, so the backlog query recognises them whatever the vendor echoes back.
      embedded += await storeVectors(database, chunks, { ...resolution.binding, vectors: result.vectors }, deps.now());
    } catch (error) {
      failed += chunks.length;
      logger.error('rag embedding drain: the provider call failed', { chunks: chunks.length, error: String(error) });
    }
  }
  const backlogAfter = await embeddingBacklog(database, resolution.binding);
  return summary(failed > 0 && embedded === 0 ? 'failed' : 'ran', { embedded, failed, backlogAfter });
}

async function storeVectors(
  database: SqlDatabase,
  chunks: readonly ChunkToEmbed[],
  result: { vectors: number[][]; providerRef: string; model: string; dims: number },
  now: Date,
): Promise<number> {
  const { affectedRows } = await database.query(
    `UPDATE ${CHUNKS} AS c SET embedding = u.vector::vector, embedding_provider = $1, embedding_model = $2,
  embedding_dims = $3::int4, embedded_at = $4::timestamptz
FROM unnest($5::text[], $6::text[], $7::text[], $8::int4[], $9::text[], $10::text[])
  AS u(resource_type, resource_id, field, chunk_index, content_hash, vector)
WHERE c.resource_type = u.resource_type AND c.resource_id = u.resource_id AND c.field = u.field
  AND c.chunk_index = u.chunk_index AND c.content_hash = u.content_hash`,
    [
      result.providerRef,
      result.model,
      result.dims,
      now.toISOString(),
      chunks.map((c) => c.resource_type),
      chunks.map((c) => c.resource_id),
      chunks.map((c) => c.field),
      chunks.map((c) => c.chunk_index),
      chunks.map((c) => c.content_hash),
      result.vectors.map(vectorLiteral),
    ],
  );
  return affectedRows;
}
