import type { BackendDomainModule } from '../../engine/index.js';
import { tasksManagerResources } from './resources/index.js';

/** The reference application's module: a todo and knowledge-base SaaS. */
export const tasksManagerModule: BackendDomainModule = {
  name: 'tasks-manager',
  ...tasksManagerResources,
};
