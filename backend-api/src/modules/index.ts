import { ResourceServerKind } from '@wildo/shared-lib';
import { defineBackendApplication } from '@wildo/backend-api';
import { supportDeskModule } from './support-desk/support-desk.module.js';
import { tasksManagerModule } from './tasks-manager/index.js';

/**
 * The reference application's module registry. Only modules listed here exist at run time.
 */
export const referenceApplication = defineBackendApplication({
  name: 'wonder-todos',
  modules: [tasksManagerModule, supportDeskModule],
  resourceServerInstances: [
    {
      ref: 'support',
      kind: ResourceServerKind.MCP,
      displayName: 'Support',
      description: 'Tools for looking up records.',
    },
    {
      ref: 'concierge',
      kind: ResourceServerKind.A2A,
      displayName: 'Concierge',
      description: 'An agent for application questions.',
      actorSystemRefs: ['todo-assistant'],
    },
  ],
});
