import {
  AskKnowledgeBaseResponseSchema,
  KnowledgeDocuments_Operations,
  TasksManager_ResourceType,
  type AskKnowledgeBaseResponse,
} from '@wildo/shared-lib/app';
import {
  SAAS_SERVICE_TYPES,
  type RagCorpusMaintenance,
  type RagRetrievalBackendService,
  type RagRetrievalResult,
} from '@wildo/backend-api';
import { knowledgeDocumentsResource } from './knowledge-documents.resource.js';

/** Projects a retrieval result into the ASK answer: sources keep their document ids and passages for citation. */
export function projectAnswer(question: string, result: RagRetrievalResult): AskKnowledgeBaseResponse {
  const sources = result.rows.map((row) => ({
    knowledgeDocumentId: row.resourceId,
    header: row.header,
    passages: row.passages.map(({ field, chunkIndex, text }) => ({ field, chunkIndex, text })),
    contextText: row.contextText,
  }));
  return AskKnowledgeBaseResponseSchema.parse({
    question,
    mode: result.mode,
    searchStatus: result.searchStatus,
    embeddingStatus: result.embeddingStatus,
    context: result.rows.map((row) => row.contextText).join('\n\n'),
    sources,
    searches: result.searches.map(({ resourceType, arm, outcome, hits }) => ({ resourceType, arm, outcome, hits })),
    chunkHitCount: result.chunkHitCount,
    contextCharacters: result.contextCharacters,
    refusedResourceTypes: result.refusedResourceTypes,
    droppedUnreadableRows: 0,
    droppedByReadFailure: new Set(
      result.searches.filter((s) => s.outcome === 'failed' || s.outcome === 'unknown').map((s) => s.resourceType),
    ).size,
    reachedContextCharacterBudget: result.truncation.reachedContextCharacterBudget,
  });
}

/** Service code of the knowledge documents: `ask` retrieves with the caller's own execution context. */
export const knowledgeDocumentsCustomImplementation = knowledgeDocumentsResource.implement({
  [KnowledgeDocuments_Operations.ASK]: async ({ input, executionContext, utils }) => {
    const retrieval = utils.resolve<RagRetrievalBackendService>(SAAS_SERVICE_TYPES.RagRetrievalService);
    const result = await retrieval.retrieve({
      query: input.question,
      executionContext,
      resourceTypes: [TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS],
      expandRelationships: false,
      ...(input.limit !== undefined && { limit: input.limit }),
      ...(input.maxContextCharacters !== undefined && { maxContextCharacters: input.maxContextCharacters }),
    });
    return projectAnswer(input.question, result);
  },
  // The engine loaded the addressed record with the caller's own tenant and roles before this runs.
  [KnowledgeDocuments_Operations.INGESTION]: async ({ id, utils }) => {
    const maintenance = utils.resolve<RagCorpusMaintenance>(SAAS_SERVICE_TYPES.RagCorpusMaintenance);
    return { sources: await maintenance.sourceStatesOf(TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS, id) };
  },
});
