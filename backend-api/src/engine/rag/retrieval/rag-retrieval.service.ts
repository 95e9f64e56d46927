import { CoreResourceOperation, EmbeddingsProvider_TextPurpose } from '@wildo/shared-lib';
import type { Logger } from '../../logging/index.js';
import type { RecordConstraint, SqlDatabase, TenantScope } from '../../persistence/index.js';
import { scopeFor, type ExecutionContext, type ResourcesRegistry } from '../../resources/index.js';
import type { RoleHierarchyResolver } from '../../identity/index.js';
import type { EmbeddingsBackendService } from '../embeddings/embeddings-backend.service.js';
import type { EmbeddingsBinding } from '../embeddings/embeddings.types.js';
import { ensureVectorColumn, vectorLiteral } from '../embeddings/vector-column.js';
import type { CorpusDefinition } from '../ingestion/corpus-definitions.js';
import type { RagIngestionService } from '../ingestion/rag-ingestion.service.js';
import { assembleContext, type FusedHit } from './context-assembly.js';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import {
  lexicalStatement,
  vectorStatement,
  type ChunkHitRow,
  type RetrievalStatement,
} from './retrieval-statements.js';
import {
  RAG_DEFAULT_LIMIT,
  RAG_DEFAULT_MAX_CONTEXT_CHARACTERS,
  RAG_MAX_CONTEXT_CHARACTERS,
  RAG_MAX_LIMIT,
  type RagArmReport,
  type RagEmbeddingStatus,
  type RagRetrievalResult,
  type RagRetrieveRequest,
  type RagSearchStatus,
} from './retrieval.types.js';

/** Options of {@link RagRetrievalBackendService}. */
export interface RagRetrievalOptions {
  database: SqlDatabase;
  registry: ResourcesRegistry;
  roles: RoleHierarchyResolver;
  ingestion: RagIngestionService;
  embeddings: EmbeddingsBackendService;
  logger: Logger;
}

/** A corpus the caller may read, with the store's tenant scope and owner constraint for it. */
interface AdmittedCorpus {
  corpus: CorpusDefinition;
  scope: TenantScope;
  constraint?: RecordConstraint;
}

/** The query vector, or why the vector arm cannot run. */
type QueryVector =
  | { ok: true; vector: number[]; binding: EmbeddingsBinding }
  | { ok: false; status: RagEmbeddingStatus; reason: string };

const MAX_QUERY_CHARACTERS = 2_000;

/**
 * `RagRetrievalBackendService` (bound to `SAAS_SERVICE_TYPES.RagRetrievalService`): hybrid retrieval over the
 * corpora a caller may read. Each requested corpus is admitted with the caller's READ roles and tenant; each
 * arm (PostgreSQL full-text, pgvector) runs one statement per corpus with the store's tenant and owner
 * conditions inside it, before ranking and limits; the arms are fused by reciprocal rank fusion; rows are
 * framed into a bounded context. Every outcome is reported: refused corpora, per-arm results, the embedding's
 * state, truncation. An execution error is logged and answered as a failed search with empty context.
 *
 * @example
 * const result = await retrieval.retrieve({ query: question, executionContext, resourceTypes: ['knowledge-documents'] });
 */
export class RagRetrievalBackendService {
  constructor(private readonly options: RagRetrievalOptions) {}

  async retrieve(request: RagRetrieveRequest): Promise<RagRetrievalResult> {
    const limit = clamp(request.limit ?? RAG_DEFAULT_LIMIT, 1, RAG_MAX_LIMIT);
    const maxContextCharacters = clamp(
      request.maxContextCharacters ?? RAG_DEFAULT_MAX_CONTEXT_CHARACTERS,
      200,
      RAG_MAX_CONTEXT_CHARACTERS,
    );
    const query = request.query.trim().slice(0, MAX_QUERY_CHARACTERS);
    const { admitted, refused } = this.admit(request.executionContext, request.resourceTypes);
    const resolution = this.options.embeddings.resolveBinding();
    const mode = resolution.status === 'absent' ? 'lexical' : 'hybrid';
    const empty = (
      searchStatus: RagSearchStatus,
      embeddingStatus: RagEmbeddingStatus,
      searches: RagArmReport[],
    ): RagRetrievalResult => ({
      rows: [],
      mode,
      searchStatus,
      embeddingStatus,
      searches,
      chunkHitCount: 0,
      contextCharacters: 0,
      refusedResourceTypes: refused,
      truncation: { reachedContextCharacterBudget: false, maxContextCharacters, omittedRows: 0, omittedPassages: 0 },
    });
    if (admitted.length === 0 || query === '') {
      return empty('not_attempted', resolution.status === 'absent' ? 'absent' : 'not_attempted', []);
    }
    const arms: RagArmReport['arm'][] = mode === 'hybrid' ? ['lexical', 'vector'] : ['lexical'];
    try {
      const vector = mode === 'hybrid' ? await this.queryVector(query, request.executionContext) : undefined;
      const candidates = Math.min(limit * 4, 200);
      const searches: RagArmReport[] = [];
      const lists: { items: FusedHit[] }[] = [];
      for (const entry of admitted) {
        const lexical = await this.runArm(entry, 'lexical', lexicalStatement, { query, limit: candidates });
        searches.push(lexical.report);
        lists.push({ items: lexical.hits });
        if (mode !== 'hybrid') continue;
        if (!vector?.ok) {
          searches.push({
            resourceType: entry.corpus.resourceType,
            arm: 'vector',
            outcome: vector?.status === 'failed' ? 'failed' : 'unavailable',
            hits: 0,
            reason: vector?.reason ?? 'no query vector',
          });
          continue;
        }
        const { providerRef: provider, model, dims } = vector.binding;
        const semantic = await this.runArm(entry, 'vector', vectorStatement, {
          vector: vectorLiteral(vector.vector),
          provider,
          model,
          dims,
          limit: candidates,
        });
        searches.push(semantic.report);
        lists.push({ items: semantic.hits });
      }
      const fused = reciprocalRankFusion(
        lists,
        (hit) => `${hit.resourceType}\u0000${hit.resourceId}\u0000${hit.passage.field}\u0000${hit.passage.chunkIndex}`,
      );
      const hits = fused.map(({ item, score }) => ({ ...item, passage: { ...item.passage, score } }));
      const { rows, contextCharacters, truncation } = assembleContext(hits, limit, maxContextCharacters);
      return {
        rows,
        mode,
        searchStatus: statusOf(searches),
        embeddingStatus: vector === undefined ? 'absent' : vector.ok ? 'embedded' : vector.status,
        searches,
        chunkHitCount: hits.length,
        contextCharacters,
        refusedResourceTypes: refused,
        truncation,
      };
    } catch (error) {
      this.options.logger.error('rag retrieval failed', {
        requestId: request.executionContext.requestId,
        error: String(error),
      });
      const unknown = admitted.flatMap((entry) =>
        arms.map((arm) => ({ resourceType: entry.corpus.resourceType, arm, outcome: 'unknown' as const, hits: 0 })),
      );
      return empty('failed', 'not_attempted', unknown);
    }
  }

  /** Admits each requested corpus the caller may READ in its tenant; every other requested type is refused. */
  private admit(
    context: ExecutionContext,
    requested: readonly string[] | undefined,
  ): { admitted: AdmittedCorpus[]; refused: string[] } {
    const types = requested ?? this.options.ingestion.listCorpora().map((corpus) => corpus.resourceType);
    const admitted: AdmittedCorpus[] = [];
    const refused: string[] = [];
    for (const type of new Set(types)) {
      const corpus = this.options.ingestion.corpusOf(type);
      const read = corpus
        ? this.options.registry.findOperation(
            this.options.registry.getServiceOperationPathDefault(type, CoreResourceOperation.READ),
          )
        : undefined;
      if (
        !corpus ||
        !read ||
        read.lifecycle === 'retired' ||
        !this.options.roles.satisfies(context.initiatorRoles, read.roles)
      ) {
        refused.push(type);
        continue;
      }
      const resource = this.options.registry.getResource(type);
      const expected = corpus.scope;
      if (expected !== 'application' && context.tenant.kind !== expected) {
        refused.push(type);
        continue;
      }
      const exempt = read.ownerOnly
        ? this.options.roles.satisfies(context.initiatorRoles, read.ownerOnly.exemptRoles)
        : true;
      admitted.push({
        corpus,
        scope: scopeFor(resource, context),
        ...(exempt ? {} : { constraint: { createdByUserId: context.initiatorIds.userId ?? '' } }),
      });
    }
    return { admitted, refused };
  }

  /** Embeds the question, or says why the vector arm cannot run (no provider, broken, failed, no pgvector). */
  private async queryVector(query: string, context: ExecutionContext): Promise<QueryVector> {
    const resolution = this.options.embeddings.resolveBinding();
    if (resolution.status !== 'bound') return { ok: false, status: resolution.status, reason: resolution.message };
    if (!(await ensureVectorColumn(this.options.database))) {
      return { ok: false, status: 'not_attempted', reason: 'The database has no pgvector.' };
    }
    try {
      const embedded = await this.options.embeddings.embedTexts({
        texts: [query],
        purpose: EmbeddingsProvider_TextPurpose.QUERY,
        applicability: resolution.binding.applicability,
        tenant: context.tenant,
        traceContext: { traceId: context.requestId },
      });
      const vector = embedded.vectors[0];
      if (!vector) throw new Error('Embeddings provider returned no vector for the query text.');
      return { ok: true, vector, binding: resolution.binding };
    } catch (error) {
      this.options.logger.warn('rag query embedding failed', { requestId: context.requestId, error: String(error) });
      return { ok: false, status: 'failed', reason: 'The query could not be embedded.' };
    }
  }

  private async runArm(
    entry: AdmittedCorpus,
    arm: RagArmReport['arm'],
    statementOf: (kind: TenantScope['kind'], owner: boolean) => RetrievalStatement,
    values: Record<string, unknown>,
  ): Promise<{ report: RagArmReport; hits: FusedHit[] }> {
    const { corpus, scope, constraint } = entry;
    const statement = statementOf(scope.kind, constraint !== undefined);
    const { rows } = await this.options.database.query<ChunkHitRow>(
      statement.text,
      statement.bind({
        ...values,
        resourceType: corpus.resourceType,
        scopeId: scope.kind === 'organization' ? scope.organizationId : scope.kind === 'user' ? scope.userId : null,
        ownerId: constraint?.createdByUserId,
      }),
      { prepare: true },
    );
    const hits = rows.map((row) => ({
      resourceType: corpus.resourceType,
      resourceId: row.resource_id,
      header: row.header,
      passage: { field: row.field, chunkIndex: row.chunk_index, text: row.content, score: Number(row.score) },
    }));
    return { report: { resourceType: corpus.resourceType, arm, outcome: 'ran', hits: hits.length }, hits };
  }
}

function statusOf(searches: readonly RagArmReport[]): RagSearchStatus {
  if (searches.every((search) => search.outcome === 'ran')) return 'ok';
  return searches.some((search) => search.outcome === 'ran') ? 'degraded' : 'failed';
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), min), max) : min;
}
