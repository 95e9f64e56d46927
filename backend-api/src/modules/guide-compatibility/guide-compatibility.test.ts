// Application code written as the framework guide writes it (its package names and identifiers) compiles
// and runs against this project: the `@wildo-ai/*` names are workspace aliases of shared-lib and the engine.
import { defineSaaSProviders, type BuiltInProviderCatalog } from '@wildo-ai/platform-config-lib';
import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  EngineCapability,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo-ai/saas-models';
import { TODO_ASSISTANT_VIEW } from '@wildo/shared-lib/app';
import { ResourcesRegistry, SAAS_SERVICE_TYPES, type BackendDomainModule } from '@wildo-ai/saas-backend-lib';
import {
  fileFieldRegistry,
  initZodDecorators,
  RAGChunkingStrategy,
  ragSourceRegistry,
  z_file,
} from '@wildo-ai/zod-decorators';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flowsActorsViewsConfig } from './flows-actors-view.guide.js';

initZodDecorators(z);

const KnowledgeText = z.object({
  title: z.string().min(1).max(200).ragSource(),
  body: z
    .string()
    .max(200_000)
    .ragSource({ chunkingStrategy: RAGChunkingStrategy.MARKDOWN, chunkSize: 1_200, chunkOverlap: 150 })
    .optional(),
  document: z_file({
    allowedMimeTypes: ['application/pdf', 'text/plain'],
    multiple: false,
    textExtraction: { ocr: false },
    ragSource: { chunkingStrategy: RAGChunkingStrategy.RECURSIVE, chunkSize: 1_500, chunkOverlap: 200 },
  }).optional(),
  internalReviewNotes: z.string().optional(),
});

const tasks = defineResource({
  type: 'tasks',
  displayName: 'Tasks',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: KnowledgeText,
  operationsConfiguration: {
    [CoreResourceOperation.READ]: {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          riskLevel: ResourceOperationRiskLevel.LOW,
          mcp: {
            exposed: true,
            description: 'Fetch a single task by its id, including its title, status, priority, and assignee.',
          },
        },
      ],
    },
  },
});

describe('guide-style application code', () => {
  it('declares RAG sources and file fields through the guide’s packages', () => {
    expect(ragSourceRegistry.get(KnowledgeText.shape.title)).toMatchObject({ chunkingStrategy: 'RECURSIVE' });
    expect(ragSourceRegistry.get(KnowledgeText.shape.body.unwrap())).toMatchObject({
      chunkingStrategy: 'MARKDOWN',
      chunkSize: 1_200,
    });
    expect(fileFieldRegistry.get(KnowledgeText.shape.document.unwrap())).toMatchObject({
      multiple: false,
      textExtraction: { ocr: false },
    });
    expect(ragSourceRegistry.get(KnowledgeText.shape.internalReviewNotes.unwrap())).toBeUndefined();
  });

  it('registers a module the way the guide composes one', () => {
    const backendModule: BackendDomainModule = { name: 'tasks-manager', resources: [tasks] };
    const registry = ResourcesRegistry.fromApplication({ name: 'wonder-todos', modules: [backendModule] });
    const read = registry.getOperationFromPath(
      registry.getServiceOperationPathDefault('tasks', CoreResourceOperation.READ),
    );
    expect(read.http).toEqual({ method: 'GET', path: '/organizations/:organizationId/tasks/:id' });
    expect(read.mcp?.exposed).toBe(true);
    expect(typeof SAAS_SERVICE_TYPES.AgentsBackendService).toBe('symbol');
  });

  it('declares the assistant’s view exactly as the guide does', () => {
    expect(flowsActorsViewsConfig).toEqual([TODO_ASSISTANT_VIEW]);
  });

  it('declares providers the way the guide configures them', () => {
    const providers = defineSaaSProviders<BuiltInProviderCatalog>({
      scopes: {
        backend: {
          providers: {
            anthropic: {
              engineCapabilities: [EngineCapability.AI_LLM],
              providerCapabilities: ['LLM_CHAT'],
              protocols: ['LLM_PROVIDER'],
            },
          },
          selection: { [EngineCapability.AI_LLM]: { primary: 'anthropic', whenUnavailable: [] } },
        },
      },
    });
    expect(providers.scopes?.backend?.selection?.[EngineCapability.AI_LLM]?.primary).toBe('anthropic');
  });
});
