import { FrontendView_ScopeMode, type FlowsActorsViewDefinition } from '../agents/agents.wire.js';
import { CoreResourceOperation } from '../models/resource-operation.js';
import { ResourcePrimaryScope } from '../models/resource-scope.js';

/** The todo assistant's chat view, addressed under an organization. */
export const TODO_ASSISTANT_VIEW: FlowsActorsViewDefinition = {
  ref: 'todo-assistant-view',
  scope: FrontendView_ScopeMode.APPLICATION,
  isAddressable: true,
  operationLike: CoreResourceOperation.READ,
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  systemRef: 'todo-assistant',
  layoutPreset: 'Default',
};
