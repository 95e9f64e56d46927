// The guide's view declaration, verbatim (guide: "A FlowsActorsViewDefinition references one registered system").
// The guide imports the view contract and scope enum from `@wildo-ai/saas-frontend-lib/companion`; here they
// come from the shared models (README: Differences from the guide).
import {
  CoreResourceOperation,
  FrontendView_ScopeMode,
  ResourcePrimaryScope,
  type FlowsActorsViewDefinition,
} from '@wildo-ai/saas-models';

export const flowsActorsViewsConfig: FlowsActorsViewDefinition[] = [
  {
    ref: 'todo-assistant-view',
    scope: FrontendView_ScopeMode.APPLICATION,
    isAddressable: true,
    operationLike: CoreResourceOperation.READ,
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    systemRef: 'todo-assistant',
    layoutPreset: 'Default',
  },
];
