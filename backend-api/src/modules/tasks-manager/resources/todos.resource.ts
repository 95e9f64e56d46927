import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
} from '@wildo/shared-lib';
import {
  CompleteTodoRequestSchema,
  TasksManager_ResourceType,
  TodoSchema,
  TodoStatsRequestSchema,
  TodoStatsResponseSchema,
  Todos_Operations,
} from '@wildo/shared-lib/app';

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];

/** The todos of an organization: members read and write them, managers delete them. */
export const todosResource = defineResource({
  type: TasksManager_ResourceType.TODOS,
  displayName: 'Todos',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: TodoSchema,
  readOnlyFields: ['completedAt', 'completionNote'],
  searchFields: ['title', 'description'],
  relationships: [
    { field: 'relatedDocumentId', resourceType: TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS, kind: 'belongs-to' },
  ],
  customOperations: {
    [Todos_Operations.COMPLETE]: {
      target: 'instance',
      requestSchema: CompleteTodoRequestSchema,
      responseSchema: resourceRecordSchema(TodoSchema, ResourcePrimaryScope.ORGANIZATIONS),
      effect: ResourceOperationEffect.WRITE,
      description: 'Marks a todo as done, with an optional closing note.',
    },
    [Todos_Operations.STATS]: {
      target: 'collection',
      requestSchema: TodoStatsRequestSchema,
      responseSchema: TodoStatsResponseSchema,
      effect: ResourceOperationEffect.READ,
      description: 'Counts the organization’s todos per status.',
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          riskLevel: ResourceOperationRiskLevel.LOW,
          rateLimit: { points: 120, durationSeconds: 60 },
          mcp: {
            exposed: true,
            description:
              'Create a todo in the organization: a title, optionally a description, status, priority and assignee.',
          },
        },
      ],
    },
    [CoreResourceOperation.READ]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          riskLevel: ResourceOperationRiskLevel.LOW,
          mcp: {
            exposed: true,
            description: 'Fetch a single todo by its id, including its title, status, priority and assignee.',
          },
        },
      ],
    },
    [CoreResourceOperation.UPDATE]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          riskLevel: ResourceOperationRiskLevel.MEDIUM,
          mcp: { exposed: true, description: 'Change fields of one todo; only the fields sent change.' },
        },
      ],
    },
    [CoreResourceOperation.DELETE]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MANAGER],
          riskLevel: ResourceOperationRiskLevel.HIGH,
          mcp: { exposed: true, description: 'Delete one todo permanently (managers only).' },
        },
      ],
    },
    [CoreResourceOperation.LIST]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          filters: ['status', 'priority', 'assignee'],
          pageSize: { default: 20, max: 100 },
          mcp: {
            exposed: true,
            description: 'List the organization’s todos, newest first, optionally by status, priority or assignee.',
          },
        },
      ],
    },
    [CoreResourceOperation.SEARCH]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          filters: ['status'],
          mcp: {
            exposed: true,
            description: 'Search the organization’s todos by words in their title and description.',
          },
        },
      ],
    },
    [Todos_Operations.COMPLETE]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          riskLevel: ResourceOperationRiskLevel.LOW,
          mcp: { exposed: true, description: 'Mark one todo as done, with an optional closing note.' },
        },
      ],
    },
    [Todos_Operations.STATS]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          rateLimit: { points: 30, durationSeconds: 60 },
          mcp: { exposed: true, servers: ['support'], description: 'Count the organization’s todos per status.' },
        },
      ],
    },
  },
});
