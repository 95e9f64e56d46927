import { ContainerModule, type ResolutionContext } from 'inversify';
import type { TokenBudgetService } from '../agents/budgets/index.js';
import type { ProviderRegistry } from '../agents/providers/index.js';
import type { ResourcesModule, ResourcesRegistry } from '../resources/index.js';
import { SAAS_SERVICE_TYPES as T, type Clock } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import type { AgentTraceSink } from '../observability/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import type { RoleHierarchyResolver } from '../identity/index.js';
import { EmbeddingsBackendService } from './embeddings/embeddings-backend.service.js';
import type { LocalDocumentReader } from './extraction/document-text.js';
import type { ExtractionLimits } from './extraction/extraction.types.js';
import { FileTextExtractionService } from './extraction/file-text-extraction.service.js';
import { corpusDefinitionsOf } from './ingestion/corpus-definitions.js';
import { RagIngestionService, type RagFileSource } from './ingestion/rag-ingestion.service.js';
import { RagCorpusMaintenance } from './rag-corpus-maintenance.service.js';
import { RAG_MIGRATIONS } from './rag.migrations.js';
import { RagRetrievalBackendService } from './retrieval/rag-retrieval.service.js';

const get = <V>(ctx: ResolutionContext, token: symbol) => ctx.get<V>(token);

/**
 * The ingestion service of an application's corpora. `createWildoBackend` builds it before the store, which it
 * wraps so corpus writes ingest in their own transaction, and binds it to `SAAS_SERVICE_TYPES.RagIngestionService`.
 */
export function createRagIngestion(options: {
  registry: ResourcesRegistry;
  logger: Logger;
  clock: Clock;
  files?: RagFileSource;
  /** Extraction bounds, and where the local readers run (the backend's extraction worker). */
  extraction?: { limits?: Partial<ExtractionLimits>; reader?: LocalDocumentReader };
}): RagIngestionService {
  return new RagIngestionService({
    corpora: corpusDefinitionsOf(options.registry.listResources()),
    extraction: new FileTextExtractionService({ logger: options.logger, ...options.extraction }),
    logger: options.logger.child({ component: 'rag-ingestion' }),
    now: () => options.clock.now(),
    ...(options.files ? { files: options.files } : {}),
  });
}

/** Binds embeddings, retrieval and corpus maintenance (ingestion is bound by `createWildoBackend`). */
export const ragContainerModule = new ContainerModule(({ bind }) => {
  bind(T.EmbeddingsBackendService)
    .toDynamicValue(
      (ctx) =>
        new EmbeddingsBackendService({
          providers: get<Partial<ProviderRegistry>>(ctx, T.LLMProviderRegistry),
          traceSink: get<AgentTraceSink>(ctx, T.AgentTraceSink),
          budgets: get<TokenBudgetService>(ctx, T.BudgetAdmission),
          clock: get<Clock>(ctx, T.Clock),
          logger: get<Logger>(ctx, T.Logger),
        }),
    )
    .inSingletonScope();
  bind(T.RagRetrievalService)
    .toDynamicValue(
      (ctx) =>
        new RagRetrievalBackendService({
          database: get<SqlDatabase>(ctx, T.Database),
          registry: get<ResourcesRegistry>(ctx, T.ResourcesRegistry),
          roles: get<RoleHierarchyResolver>(ctx, T.RoleHierarchyResolver),
          ingestion: get<RagIngestionService>(ctx, T.RagIngestionService),
          embeddings: get<EmbeddingsBackendService>(ctx, T.EmbeddingsBackendService),
          logger: get<Logger>(ctx, T.Logger),
        }),
    )
    .inSingletonScope();
  bind(T.RagCorpusMaintenance)
    .toDynamicValue(
      (ctx) =>
        new RagCorpusMaintenance({
          database: get<SqlDatabase>(ctx, T.Database),
          ingestion: get<RagIngestionService>(ctx, T.RagIngestionService),
          embeddings: get<EmbeddingsBackendService>(ctx, T.EmbeddingsBackendService),
          logger: get<Logger>(ctx, T.Logger),
          clock: get<Clock>(ctx, T.Clock),
        }),
    )
    .inSingletonScope();
});

/** RAG as an engine module: the chunk tables and the services' bindings. */
export const ragModule: ResourcesModule = {
  name: 'wildo-rag',
  migrations: RAG_MIGRATIONS,
  containerModule: ragContainerModule,
};
