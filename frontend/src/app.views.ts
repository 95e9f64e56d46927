import { CoreResourceOperation, ResourcePrimaryScope } from '@wildo/shared-lib/models';
import {
  FrontendView_ScopeMode,
  launcherEntries,
  type FlowsActorsViewDefinition,
} from '@wildo-ai/saas-frontend-lib/companion';

/**
 * The application's assistant views (the frontend module's `flowsActorsViews`, as the guide declares them).
 * Each becomes a launcher entry; an addressable one also gets a page under its organization. The backend
 * registers the actor system each `systemRef` names.
 */
export const flowsActorsViews: FlowsActorsViewDefinition[] = [
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

/** The assistant launcher: one entry per declared view. */
export const ASSISTANT_LAUNCHER = launcherEntries(flowsActorsViews, { 'todo-assistant-view': 'Todo assistant' });
