import type { BackendDomainModule } from '@wildo/backend-api';
import { tasksManagerContainerModule, tasksManagerFlowsActors } from './flows-actors/index.js';
import { tasksManagerResources } from './resources/index.js';

/** The reference application's module: a todo and knowledge-base SaaS with a triage agent and a todo assistant. */
export const tasksManagerModule: BackendDomainModule = {
  name: 'tasks-manager',
  ...tasksManagerResources,
  flowsActors: tasksManagerFlowsActors,
  containerModule: tasksManagerContainerModule,
};
