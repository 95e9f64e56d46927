import { ResourceServerKind } from '@wildo/shared-lib';
import { defineBackendApplication } from '@wildo/backend-api';
import { supportDeskModule } from './support-desk/support-desk.module.js';
import { tasksManagerModule } from './tasks-manager/index.js';
import { travelDeskModule } from './travel-desk/travel-desk.module.js';

/**
 * The reference application's module registry. Only modules listed here exist at run time.
 */
export const referenceApplication = defineBackendApplication({
  name: 'wonder-todos',
  modules: [tasksManagerModule, supportDeskModule, travelDeskModule],
  resourceServerInstances: [
    {
      ref: 'support',
      kind: ResourceServerKind.MCP,
      displayName: 'Support',
      description: 'Tools for looking up records.',
    },
    {
      ref: 'travel-desk',
      kind: ResourceServerKind.MCP,
      displayName: 'Travel desk',
      description: "Find, price and book stays with the travel agency, and read the month's bookings.",
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
