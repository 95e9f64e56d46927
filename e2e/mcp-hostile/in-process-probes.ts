import { createResourceCustomServiceImplementation, type BackendDomainModule } from '@wildo/backend-api';
import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { SavedViewSchema, TodoStatsRequestSchema, TodoStatsResponseSchema } from '@wildo/shared-lib/app';
import type { InProcessTools } from './scenario-context.js';

// Test-only: what the reference application does not declare, so the in-process run can reach the two refusal
// reasons a running reference stack cannot (lifecycle_blocked, principal_not_allowed). The schemas are borrowed
// from the shared contracts; only the lifecycle and scope matter here.

const API_CALL = ResourceOperationVariantType.API_CALL;

/** An organization resource whose one MCP tool has been retired. */
const sunsets = defineResource({
  type: 'e2e-sunsets',
  displayName: 'E2E sunsets',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: SavedViewSchema,
  customOperations: {
    sunset: {
      target: 'collection',
      requestSchema: TodoStatsRequestSchema,
      responseSchema: TodoStatsResponseSchema,
      effect: ResourceOperationEffect.READ,
    },
  },
  operationsConfiguration: {
    sunset: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          lifecycle: 'retired',
          mcp: { exposed: true, description: 'A retired tool.' },
        },
      ],
    },
  },
});

/** A user-scoped resource listed through MCP: a person's own records, which an organization machine may not address. */
const memos = defineResource({
  type: 'e2e-memos',
  displayName: 'E2E memos',
  primaryScope: ResourcePrimaryScope.USER,
  schema: SavedViewSchema,
  operationsConfiguration: {
    [CoreResourceOperation.LIST]: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: [CORE_APP_ROLES.APP_USER],
          mcp: { exposed: true, description: 'List your memos.' },
        },
      ],
    },
  },
});

/** The module to add next to the reference application's own in the in-process run. */
export const inProcessProbesModule: BackendDomainModule = {
  name: 'e2e-mcp-probes',
  resources: [sunsets, memos],
  customServiceImplementations: [
    createResourceCustomServiceImplementation('e2e-sunsets', {
      customOperations: { sunset: async () => ({ total: 0, byStatus: { todo: 0, in_progress: 0, done: 0 } }) },
    }),
  ],
};

/** The scenario's handles on the module's tools. */
export const IN_PROCESS_TOOLS: InProcessTools = {
  retired: { name: 'e2e-sunsets__sunset', arguments: (organizationId) => ({ organizationId }) },
  userScoped: { name: 'e2e-memos__list', arguments: { limit: 5 } },
};
