import {
  Actor_ExecutionMode,
  Actor_Role_Category,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  FlowActorSystem_Kind,
  FlowActorSystem_Status,
  FlowActorSystem_Visibility,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  LLM_Model,
  LLMProvider_ChatCompletionInputSchema,
  LLMProvider_ChatCompletionOutputSchema,
  LLMProvider_OperationContext_BaseSchema,
  LLMProvider_OperationKey,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  TasksManager_ResourceType,
  TodoSchema,
  type ActorSystem,
  type FlowsActors_Agent,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { resourceReadTool, resourceWriteTool } from '../../../engine/index.js';

/** The todo assistant's system ref (the browser addresses it). */
export const TODO_ASSISTANT_SYSTEM_REF = 'todo-assistant';
/** Its conversational agent. */
export const TODO_ASSISTANT_AGENT_REF = 'todo-assistant.chat.agent';

/** Reads todos: one by id, or a short list matching a query. */
export const readTodoTool = resourceReadTool(TasksManager_ResourceType.TODOS);

/** Renames one todo, only after the person approves the exact change. */
export const renameTodoTool = resourceWriteTool(TasksManager_ResourceType.TODOS, CoreResourceOperation.UPDATE, {
  requiresHumanApproval: true,
  description: 'Rename one todo. The person is asked to approve the new title before it changes.',
  inputSchema: z.object({
    id: z.string().min(1).max(64).describe('Id of the todo to rename.'),
    title: TodoSchema.shape.title.describe('The new title.'),
  }),
});

/** The assistant's agent: a pinned chat model with exactly two tools. */
export const todoAssistantAgent: FlowsActors_Agent = {
  ref: TODO_ASSISTANT_AGENT_REF,
  displayName: 'Todo Assistant',
  status: FlowsActors_Agent_Status.ACTIVE,
  config: {
    providerRef: 'anthropic',
    model: LLM_Model.CLAUDE_SONNET_5,
    operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
    maxOutputTokens: 1024,
    accessControl: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, requiresApproval: false, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
    riskLevel: ResourceOperationRiskLevel.MEDIUM,
  },
  operationDefinition: {
    operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
    providerRef: 'anthropic',
    inputSchema: LLMProvider_ChatCompletionInputSchema,
    outputSchema: LLMProvider_ChatCompletionOutputSchema,
    operationContextSchema: LLMProvider_OperationContext_BaseSchema,
  },
  promptSpec: {
    role: 'You help members of an organization keep their todo list tidy.',
    persona: 'Brief and precise. You act only on todos you have looked up.',
    skillType: FlowsActors_Agent_Skill_Type.CHAT,
    instructions: [
      'Look a todo up before changing it, and name it by its title when you answer.',
      'Renaming asks the person for approval; say what you proposed and wait for their decision.',
      'Never invent ids: use the ids the read tool returned.',
    ],
  },
  capabilities: { tools: { functionRefs: [readTodoTool.functionRef, renameTodoTool.functionRef] } },
  createdAt: '2026-08-01T00:00:00.000Z',
};

/** The in-app assistant members talk to, within their organization. */
export function buildTodoAssistantSystem(): ActorSystem {
  return {
    kind: FlowActorSystem_Kind.ACTOR,
    ref: TODO_ASSISTANT_SYSTEM_REF,
    displayName: 'Todo Assistant',
    description: 'Reads and renames todos of your organization.',
    status: FlowActorSystem_Status.ACTIVE,
    visibility: FlowActorSystem_Visibility.FRONTEND,
    config: {
      accessControl: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, requiresApproval: false, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
      riskLevel: ResourceOperationRiskLevel.MEDIUM,
      maxToolSteps: 6,
    },
    actors: [
      {
        ref: 'todo-assistant.operator',
        displayName: 'Assistant',
        roleCategory: Actor_Role_Category.OPERATOR,
        executionMode: Actor_ExecutionMode.AGENTIC,
        agentRef: TODO_ASSISTANT_AGENT_REF,
      },
    ],
    createdAt: '2026-08-01T00:00:00.000Z',
  };
}
