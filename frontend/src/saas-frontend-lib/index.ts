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
