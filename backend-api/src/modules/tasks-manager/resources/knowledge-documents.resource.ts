import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import {
  AskKnowledgeBaseRequestSchema,
  AskKnowledgeBaseResponseSchema,
  KnowledgeDocumentIngestionRequestSchema,
  KnowledgeDocumentIngestionResponseSchema,
  KnowledgeDocumentSchema,
  KnowledgeDocuments_Operations,
  TasksManager_ResourceType,
} from '@wildo/shared-lib/app';

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];
const manager = [CORE_ORG_ROLES.ORG_MANAGER];

/** An organization's knowledge base: members read and add documents, managers edit and remove them. */
export const knowledgeDocumentsResource = defineResource({
  type: TasksManager_ResourceType.KNOWLEDGE_DOCUMENTS,
  displayName: 'Knowledge documents',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: KnowledgeDocumentSchema,
  customOperations: {
    [KnowledgeDocuments_Operations.ASK]: {
      target: 'collection',
      requestSchema: AskKnowledgeBaseRequestSchema,
      responseSchema: AskKnowledgeBaseResponseSchema,
      effect: ResourceOperationEffect.READ,
      description: 'Answers a question with cited passages of the documents the caller may read.',
    },
    [KnowledgeDocuments_Operations.INGESTION]: {
      target: 'instance',
      requestSchema: KnowledgeDocumentIngestionRequestSchema,
      responseSchema: KnowledgeDocumentIngestionResponseSchema,
      effect: ResourceOperationEffect.READ,
      description: 'Tells how far indexing of the document got: pending, indexed, or failed with its reason.',
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: member }] },
    [CoreResourceOperation.READ]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          mcp: { exposed: true, servers: ['support'], description: 'Read one knowledge document.' },
        },
      ],
    },
    [CoreResourceOperation.UPDATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: manager }] },
    [CoreResourceOperation.DELETE]: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: manager, riskLevel: ResourceOperationRiskLevel.HIGH },
      ],
    },
    [CoreResourceOperation.LIST]: { variants: [{ variantType: API_CALL, isDefault: true, roles: member }] },
    [KnowledgeDocuments_Operations.ASK]: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: member, rateLimit: { points: 60, durationSeconds: 60 } },
      ],
    },
    [KnowledgeDocuments_Operations.INGESTION]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: member }],
    },
    [CoreResourceOperation.SEARCH]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          mcp: {
            exposed: true,
            servers: ['support'],
            description: 'Search the knowledge base by words in titles and bodies.',
          },
        },
      ],
    },
  },
});
