// RAG: extraction, chunking, ingestion, embeddings, retrieval and corpus maintenance.
export { chunkingHash, chunkText, sourceHash, CHUNKER_VERSION, type TextChunk } from './chunking/text-chunker.js';
export { drainEmbeddings, embeddingBacklog, type EmbeddingDrainSummary } from './embeddings/embedding-drain.js';
export { EmbeddingsBackendService, type EmbeddingsBackendOptions } from './embeddings/embeddings-backend.service.js';
export type {
  EmbeddingsApplicability,
  EmbeddingsBinding,
  EmbeddingsBindingResolution,
  EmbedTextsRequest,
  EmbedTextsResult,
} from './embeddings/embeddings.types.js';
export { inflateArchive, type InflatedEntries, type InflateSelection } from './extraction/bounded-inflater.js';
export {
  extractDocumentText,
  normalizeMediaType,
  readDocumentLocally,
  type DocumentTextOptions,
  type LocalDocumentReader,
  type LocalReading,
  type TextRecognitionProvider,
} from './extraction/document-text.js';
export {
  DEFAULT_EXTRACTION_WORKER_SETTINGS,
  ExtractionWorker,
  type ExtractionWorkerSettings,
} from './extraction/extraction-worker.js';
export {
  DEFAULT_EXTRACTION_LIMITS,
  EXTRACTION_MEDIA_TYPES,
  ExtractionError,
  RATIO_CHECK_FLOOR_BYTES,
  type ExtractedText,
  type ExtractionFailureReason,
  type ExtractionLimitName,
  type ExtractionLimits,
} from './extraction/extraction.types.js';
export { FileTextExtractionService, type ExtractableFile } from './extraction/file-text-extraction.service.js';
export { corpusDefinitionsOf, type CorpusDefinition, type CorpusField } from './ingestion/corpus-definitions.js';
export type { CorpusSweepSummary } from './ingestion/corpus-reconciliation.js';
export { RagIngestionService, type RagFileSource } from './ingestion/rag-ingestion.service.js';
export { storedFileSource, type StoredFileReader } from './ingestion/stored-file-source.js';
export {
  RAG_EMBEDDING_DRAIN_BATCH_SIZE,
  RAG_SWEEP_FILE_BATCH_SIZE,
  RagCorpusMaintenance,
  type RagSourceStatus,
} from './rag-corpus-maintenance.service.js';
export {
  RAG_EMBEDDING_DRAIN_CRON,
  RAG_EMBEDDING_DRAIN_QUEUE,
  RAG_FILE_EXTRACTION_QUEUE,
  RAG_SWEEP_CRON,
  RAG_SWEEP_QUEUE,
  startRagBackgroundJobs,
  startRagJobs,
  type EmbeddingDrainJobData,
} from './rag-jobs.js';
export { createRagIngestion, ragModule } from './rag.module.js';
export { RagRetrievalBackendService } from './retrieval/rag-retrieval.service.js';
export { reciprocalRankFusion, RRF_K } from './retrieval/reciprocal-rank-fusion.js';
export {
  RAG_DEFAULT_LIMIT,
  RAG_DEFAULT_MAX_CONTEXT_CHARACTERS,
  RAG_MAX_LIMIT,
  type RagArmReport,
  type RagEmbeddingStatus,
  type RagPassage,
  type RagRetrievalResult,
  type RagRetrievalRow,
  type RagRetrieveRequest,
  type RagSearchStatus,
  type RagTruncation,
} from './retrieval/retrieval.types.js';
export { withCorpusIngestion } from './ingestion/corpus-ingesting-store.js';
