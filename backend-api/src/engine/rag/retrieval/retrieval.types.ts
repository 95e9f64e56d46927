import type { ExecutionContext } from '../../resources/index.js';

/** `RagRetrievalBackendService.retrieve`'s request; `executionContext` is the calling operation's, unchanged. */
export interface RagRetrieveRequest {
  query: string;
  executionContext: ExecutionContext;
  /** The corpora to search (default: every corpus of the application). */
  resourceTypes?: readonly string[];
  /** Accepted for the guide's call shape; related records are not expanded yet (rows hold their own passages). */
  expandRelationships?: boolean;
  /** Passages returned at most (default {@link RAG_DEFAULT_LIMIT}, at most {@link RAG_MAX_LIMIT}). */
  limit?: number;
  /** The context budget in characters (default {@link RAG_DEFAULT_MAX_CONTEXT_CHARACTERS}). */
  maxContextCharacters?: number;
}

/** Default and bounds of a request. */
export const RAG_DEFAULT_LIMIT = 8;
export const RAG_MAX_LIMIT = 50;
export const RAG_DEFAULT_MAX_CONTEXT_CHARACTERS = 12_000;
export const RAG_MAX_CONTEXT_CHARACTERS = 200_000;

/** The search's health: all requested arms ran, some did not, none could, or nothing was searched. */
export type RagSearchStatus = 'ok' | 'degraded' | 'failed' | 'not_attempted';
/**
 * The query embedding: made; no provider on purpose (`absent`); a selected provider whose configuration is
 * broken (`misconfigured`); the provider call failed; or not attempted (no vector arm could use it).
 */
export type RagEmbeddingStatus = 'embedded' | 'absent' | 'misconfigured' | 'failed' | 'not_attempted';
/** One arm's actual outcome for one admitted corpus. `unknown`: the search aborted before it reported. */
export type RagArmOutcome = 'ran' | 'unavailable' | 'failed' | 'unknown';

/** What one arm did for one corpus. */
export interface RagArmReport {
  resourceType: string;
  arm: 'lexical' | 'vector';
  outcome: RagArmOutcome;
  hits: number;
  /** Why it did not run (client-safe). */
  reason?: string;
}

/** One passage: a chunk of a source field. `score` ranks this query's results only (fused reciprocal ranks). */
export interface RagPassage {
  field: string;
  chunkIndex: number;
  text: string;
  score: number;
}

/** One record with its matching passages and the framed text given to a model. */
export interface RagRetrievalRow {
  resourceType: string;
  resourceId: string;
  header: string;
  passages: RagPassage[];
  contextText: string;
  score: number;
}

/** What the context budget cut. */
export interface RagTruncation {
  reachedContextCharacterBudget: boolean;
  maxContextCharacters: number;
  omittedRows: number;
  omittedPassages: number;
}

/** The answer of `retrieve`: attributed passages and honest diagnostics. */
export interface RagRetrievalResult {
  rows: RagRetrievalRow[];
  /** What was requested: `hybrid` when an embeddings provider is selected, else `lexical`. */
  mode: 'hybrid' | 'lexical';
  searchStatus: RagSearchStatus;
  embeddingStatus: RagEmbeddingStatus;
  searches: RagArmReport[];
  /** Authorized chunks that matched (after fusion, before the limit). */
  chunkHitCount: number;
  contextCharacters: number;
  /** Requested corpora the caller may not read (or that are not corpora): searched for nothing, not empty. */
  refusedResourceTypes: string[];
  truncation: RagTruncation;
}
