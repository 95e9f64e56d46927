import {
  KnowledgeDocuments_Operations,
  TasksManager_ResourceType,
  type AskKnowledgeBaseResponse,
} from '@wildo/shared-lib/app';
import { z } from 'zod';
import type { FunctionTool } from '@wildo/backend-api';

/** The knowledge-base tool's ref: the ASK operation it dispatches. */
export const KNOWLEDGE_BASE_ASK_TOOL_REF = `resource.${TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS}.${KnowledgeDocuments_Operations.ASK}`;

/** What the model may send: a question and an optional passage limit. Identity comes from the conversation. */
export const KnowledgeBaseAskToolInputSchema = z.object({
  question: z.string().min(3).max(1_000).describe('The question, in the words of the user.'),
  limit: z.number().int().min(1).max(25).optional().describe('How many passages to return at most.'),
});

/** Whether passages were found, the search was refused, or nothing matched: three different answers. */
export type KnowledgeBaseAskOutcome = 'matched' | 'refused' | 'nothing-matched';

/** What the model reads back: sources to cite, the outcome and notes on what the answer may not claim. */
export interface KnowledgeBaseAskToolResult {
  question: string;
  mode: AskKnowledgeBaseResponse['mode'];
  outcome: KnowledgeBaseAskOutcome;
  sources: { knowledgeDocumentId: string; header: string; contextText: string }[];
  notes: string[];
}

/** Projects the ASK answer for the model: outcome and notes keep a refusal or a partial search from passing as "nothing". */
export function toToolResult(answer: AskKnowledgeBaseResponse): KnowledgeBaseAskToolResult {
  const sources = answer.sources.map((source) => ({
    knowledgeDocumentId: source.knowledgeDocumentId,
    header: source.header,
    contextText: source.contextText,
  }));
  const notes: string[] = [];
  const withheld = answer.droppedUnreadableRows + answer.droppedByReadFailure;
  if (withheld > 0) notes.push('Some matching documents were withheld; the answer is partial.');
  if (answer.searchStatus === 'degraded')
    notes.push('Only part of the search could run; the answer may miss passages.');
  if (answer.searchStatus === 'failed')
    notes.push('The search failed; this does not establish that the information is absent.');
  if (answer.reachedContextCharacterBudget)
    notes.push('The matched text reached the context budget; narrow the question.');
  if (sources.length === 0 && answer.refusedResourceTypes.length > 0) {
    notes.push('Search was refused; this does not establish that the information is absent.');
  } else if (sources.length === 0 && answer.searchStatus !== 'failed') {
    notes.push('No matching passages were found; do not substitute an unsupported answer.');
  }
  const outcome: KnowledgeBaseAskOutcome =
    sources.length > 0 ? 'matched' : answer.refusedResourceTypes.length > 0 ? 'refused' : 'nothing-matched';
  return { question: answer.question, mode: answer.mode, outcome, sources, notes };
}

/**
 * The todo assistant's knowledge-base tool: it calls the knowledge documents' ASK operation through the dispatch
 * path as the conversation's owner (authorization, tenant, rate policy of the `tool` surface, strict input), so
 * the model can only read passages its person may read.
 */
export const knowledgeBaseAskTool: FunctionTool<typeof KnowledgeBaseAskToolInputSchema> = {
  functionRef: KNOWLEDGE_BASE_ASK_TOOL_REF,
  resourceOperation: {
    resourceType: TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS,
    operation: KnowledgeDocuments_Operations.ASK,
  },
  description:
    'Search the policy documents the user may read. Read outcome and notes; answer only from the returned passages and name their documents.',
  inputSchema: KnowledgeBaseAskToolInputSchema,
  readOnly: true,
  async execute(args, ctx) {
    const result = await ctx.call(TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS, KnowledgeDocuments_Operations.ASK, {
      input: { question: args.question, ...(args.limit !== undefined && { limit: args.limit }) },
    });
    return toToolResult(result.data as AskKnowledgeBaseResponse);
  },
};
