// `@wildo-ai/saas-frontend-lib`: the host's flows-actors components, as the guide names them. The view contract
// and launcher entries live in `@wildo-ai/saas-frontend-lib/companion`.
export { FlowsActors_ApprovalQueue, type FlowsActors_ApprovalQueueProps } from './flows-actors-approval-queue';
export { FlowsActors_ApprovalRequest, type FlowsActors_ApprovalRequestProps } from './flows-actors-approval-request';
export {
  FlowsActorsProvider,
  useFlowsActors,
  type FlowsActorsContextValue,
  type FlowsActorsProviderProps,
} from './flows-actors.context';
// The pages generated from the declared resources' descriptions, for a frontend that composes its own pages.
export { DeclaredRecordsPage } from '../declared/declared-records.page';
export { loadResourceDescriptions, resourceDescriptionsPath } from '../declared/resource-descriptions.client';
export { SchemaForm } from '../declared/schema-form';
export { fieldsOf, problemWith, type JsonSchemaNode, type SchemaField } from '../declared/schema-fields';
export { hasPage, useResourceDescriptions } from '../declared/use-resource-descriptions';
