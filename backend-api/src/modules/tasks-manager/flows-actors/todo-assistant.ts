import { CORE_ORG_ROLES, LLM_Model, ResourceOperationRiskLevel, ResourcePrimaryScope } from '@wildo/shared-lib';
import { TodoSchema } from '@wildo/shared-lib/app';
import { z } from 'zod';
import { defineActorSystem, defineChatAgent } from '@wildo/backend-api';
import { todosResource } from '../resources/todos.resource.js';
import { KNOWLEDGE_BASE_ASK_TOOL_REF, knowledgeBaseAskTool } from './knowledge-base-tool.js';

/** The todo assistant's system ref (the browser addresses it). */
export const TODO_ASSISTANT_SYSTEM_REF = 'todo-assistant';
/** Its conversational agent. */
export const TODO_ASSISTANT_AGENT_REF = 'todo-assistant.chat.agent';

/** Reads todos: one by id, or a short list matching a query. */
export const readTodoTool = todosResource.tools.read();

/** Renames one todo, only after the person approves the exact change. */
export const renameTodoTool = todosResource.tools.write('update', {
  requiresHumanApproval: true,
  description: 'Rename one todo. The person is asked to approve the new title before it changes.',
  inputSchema: z.object({
    id: z.string().min(1).max(64).describe('Id of the todo to rename.'),
    title: TodoSchema.shape.title.describe('The new title.'),
  }),
});

/** The assistant's agent: a pinned chat model with three tools (read, rename, ask the knowledge base). */
export const todoAssistantAgent = defineChatAgent({
  ref: TODO_ASSISTANT_AGENT_REF,
  displayName: 'Todo Assistant',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_SONNET_5,
  maxOutputTokens: 1024,
  prompt: {
    role: 'You help members of an organization keep their todo list tidy.',
    persona: 'Brief and precise. You act only on todos you have looked up.',
    instructions: [
      'Look a todo up before changing it, and name it by its title when you answer.',
      'Renaming asks the person for approval; say what you proposed and wait for their decision.',
      'Never invent ids: use the ids the read tool returned.',
      `Use ${KNOWLEDGE_BASE_ASK_TOOL_REF} for policy questions. Read its outcome and notes before answering.`,
      'For matched results, answer only from the returned passages and cite each document you use by its header, as [header].',
      'For nothing-matched, say no relevant passages were found. For refused, say access was refused; do not claim the information is absent.',
      'If notes report withheld, partial or truncated material, say the answer covers only the returned material.',
    ],
  },
  tools: [readTodoTool, renameTodoTool, knowledgeBaseAskTool],
  access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
});

/** The in-app assistant members talk to, within their organization. */
export const todoAssistant = defineActorSystem({
  ref: TODO_ASSISTANT_SYSTEM_REF,
  displayName: 'Todo Assistant',
  description: 'Reads and renames todos of your organization, and answers policy questions from its knowledge base.',
  agents: [{ agent: todoAssistantAgent, ref: 'todo-assistant.operator', displayName: 'Assistant' }],
  riskLevel: ResourceOperationRiskLevel.MEDIUM,
  maxToolSteps: 6,
});

/** The system as its factory builds it (kept for code that builds it directly). */
export const buildTodoAssistantSystem = todoAssistant.build;
