import type { BackendDomainModule } from '@wildo/backend-api';
import { announcementsResource } from './announcements.resource.js';
import { knowledgeDocumentsCustomImplementation } from './knowledge-documents.custom-impl.service.js';
import { knowledgeDocumentsResource } from './knowledge-documents.resource.js';
import { savedViewsResource } from './saved-views.resource.js';
import { todosCustomImplementation } from './todos.custom-impl.service.js';
import { todosResource } from './todos.resource.js';

/** The resources of the tasks manager and their service code. */
export const tasksManagerResources: Pick<BackendDomainModule, 'resources' | 'customServiceImplementations'> = {
  resources: [todosResource, knowledgeDocumentsResource, announcementsResource, savedViewsResource],
  customServiceImplementations: [todosCustomImplementation, knowledgeDocumentsCustomImplementation],
};
