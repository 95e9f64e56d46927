import { z } from 'zod';
import { initZodDecorators, RAGChunkingStrategy, z_file } from '../zod-decorators/index.js';

initZodDecorators(z);

/** The reference application's resource types (a todo and knowledge-base SaaS). */
export enum TasksManager_ResourceType {
  TODOS = 'todos',
  KNOWLEDGE_DOCUMENTS = 'knowledge-documents',
  ANNOUNCEMENTS = 'announcements',
  SAVED_VIEWS = 'saved-views',
}

/** Where a todo stands. */
export enum Todos_Status {
  TODO = 'todo',
  IN_PROGRESS = 'in_progress',
  DONE = 'done',
}

/** Custom operations of the todos resource. */
export enum Todos_Operations {
  COMPLETE = 'complete',
  STATS = 'stats',
}

/** Custom operations of the knowledge documents resource. */
export enum KnowledgeDocuments_Operations {
  ASK = 'ask',
  INGESTION = 'ingestion',
}

/** One item of a todo's checklist. */
export const TodoChecklistItemSchema = z.object({
  label: z.string().min(1).max(200),
  done: z.boolean(),
});

/** A todo of an organization. */
export const TodoSchema = z.object({
  title: z.string().min(1).max(200),
  description: z.string().max(5_000).optional(),
  status: z.enum(Todos_Status).default(Todos_Status.TODO),
  priority: z.number().int().min(1).max(5).default(3),
  /** User id of the member the todo is assigned to. */
  assignee: z.string().min(1).max(64).nullable().optional(),
  checklist: z.array(TodoChecklistItemSchema).max(50).optional(),
  /** A knowledge document of the same organization this todo refers to. */
  relatedDocumentId: z.string().min(1).max(64).nullable().optional(),
  /** Set by the `complete` operation only. */
  completedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** The note given when completing; set by the `complete` operation only. */
  completionNote: z.string().max(500).nullable().optional(),
});
export type Todo = z.infer<typeof TodoSchema>;

/** `POST .../todos/:id/complete`: an optional closing note. */
export const CompleteTodoRequestSchema = z.object({
  note: z.string().max(500).optional(),
});

/** `POST .../todos/stats`: counts per status, optionally for one assignee. */
export const TodoStatsRequestSchema = z.object({
  assignee: z.string().min(1).max(64).optional(),
});
export const TodoStatsResponseSchema = z.object({
  total: z.number().int(),
  byStatus: z.object({
    todo: z.number().int(),
    in_progress: z.number().int(),
    done: z.number().int(),
  }),
});
export type TodoStatsResponse = z.infer<typeof TodoStatsResponseSchema>;

/** A knowledge document: title and body are indexed for retrieval, review notes are not. */
export const KnowledgeDocumentSchema = z.object({
  title: z.string().min(1).max(200).ragSource(),
  body: z
    .string()
    .max(200_000)
    .ragSource({ chunkingStrategy: RAGChunkingStrategy.MARKDOWN, chunkSize: 1_200, chunkOverlap: 150 })
    .optional(),
  document: z_file({
    allowedMimeTypes: [
      'application/pdf',
      'text/plain',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    multiple: false,
    textExtraction: { ocr: false },
    ragSource: { chunkingStrategy: RAGChunkingStrategy.RECURSIVE, chunkSize: 1_500, chunkOverlap: 200 },
  }).optional(),
  internalReviewNotes: z.string().max(10_000).optional(),
});
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;

/** `POST .../knowledge-documents/:id/ingestion`: no input. */
export const KnowledgeDocumentIngestionRequestSchema = z.object({});

/** How far one indexed field of a document got: pending (waiting for extraction), indexed, or failed with a reason. */
export const KnowledgeDocumentIngestionSourceSchema = z.object({
  field: z.string(),
  kind: z.enum(['text', 'file']),
  status: z.enum(['pending', 'indexed', 'failed']),
  /** For `failed`: `malformed_document`, `limit_exceeded`, `unsupported_media_type`, `no_text_layer`, ... */
  failureReason: z.string().nullable(),
  chunkCount: z.number().int(),
  updatedAt: z.string(),
});

/** The ingestion state of each indexed field of one knowledge document (fields with nothing to index are absent). */
export const KnowledgeDocumentIngestionResponseSchema = z.object({
  sources: z.array(KnowledgeDocumentIngestionSourceSchema),
});
export type KnowledgeDocumentIngestion = z.infer<typeof KnowledgeDocumentIngestionResponseSchema>;

/** `POST .../knowledge-documents/ask`: a question, optionally a passage limit and a context budget. */
export const AskKnowledgeBaseRequestSchema = z.object({
  question: z.string().min(3).max(1_000),
  limit: z.number().int().min(1).max(25).optional(),
  maxContextCharacters: z.number().int().min(500).max(50_000).optional(),
});
export type AskKnowledgeBaseRequest = z.infer<typeof AskKnowledgeBaseRequestSchema>;

/** One cited passage of a knowledge document. */
export const AskKnowledgeBasePassageSchema = z.object({
  field: z.string(),
  chunkIndex: z.number().int(),
  text: z.string(),
});

/** One knowledge document the answer may cite: its id, title, passages and the framed text given to a model. */
export const AskKnowledgeBaseSourceSchema = z.object({
  knowledgeDocumentId: z.string(),
  header: z.string(),
  passages: z.array(AskKnowledgeBasePassageSchema),
  contextText: z.string(),
});

/** What the knowledge base found for a question, with the search's own diagnostics (never a bare empty list). */
export const AskKnowledgeBaseResponseSchema = z.object({
  question: z.string(),
  mode: z.enum(['hybrid', 'lexical']),
  searchStatus: z.enum(['ok', 'degraded', 'failed', 'not_attempted']),
  embeddingStatus: z.enum(['embedded', 'absent', 'misconfigured', 'failed', 'not_attempted']),
  context: z.string(),
  sources: z.array(AskKnowledgeBaseSourceSchema),
  searches: z.array(
    z.object({
      resourceType: z.string(),
      arm: z.enum(['lexical', 'vector']),
      outcome: z.enum(['ran', 'unavailable', 'failed', 'unknown']),
      hits: z.number().int(),
    }),
  ),
  chunkHitCount: z.number().int(),
  contextCharacters: z.number().int(),
  refusedResourceTypes: z.array(z.string()),
  /** Matching documents the caller could not read: 0, since authorization runs inside the search. */
  droppedUnreadableRows: z.number().int(),
  /** Corpora whose search failed, so their documents could not be considered. */
  droppedByReadFailure: z.number().int(),
  reachedContextCharacterBudget: z.boolean(),
});
export type AskKnowledgeBaseResponse = z.infer<typeof AskKnowledgeBaseResponseSchema>;

/** An application-wide announcement: written by application admins, read by every user. */
export const AnnouncementSchema = z.object({
  title: z.string().min(1).max(200),
  body: z.string().max(10_000),
  severity: z.enum(['info', 'warning', 'critical']).default('info'),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

/** A user's saved todo view: private to that user. */
export const SavedViewSchema = z.object({
  name: z.string().min(1).max(100),
  criteria: z.object({
    status: z.enum(Todos_Status).optional(),
    minPriority: z.number().int().min(1).max(5).optional(),
    layout: z
      .object({
        columns: z.array(z.enum(['title', 'status', 'priority', 'assignee'])).max(4),
        compact: z.boolean(),
      })
      .optional(),
  }),
  pinned: z.boolean().default(false),
});
export type SavedView = z.infer<typeof SavedViewSchema>;
