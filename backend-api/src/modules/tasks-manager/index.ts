import type { BackendDomainModule } from '../../engine/index.js';
import { tasksManagerContainerModule, tasksManagerFlowsActors } from './flows-actors/index.js';
import { tasksManagerResources } from './resources/index.js';

/** The reference application's module: a todo and knowledge-base SaaS with a triage agent and a todo assistant. */
export const tasksManagerModule: BackendDomainModule = {
  name: 'tasks-manager',
  ...tasksManagerResources,
  flowsActors: tasksManagerFlowsActors,
  containerModule: tasksManagerContainerModule,
};
