import type { ResourceCustomServiceHooks, ServiceHandlerUtils } from './custom-service.js';
import type { ExecutionContext } from './execution-context.js';

/**
 * The engine's types that resource handles (`defineResource(...)`) use for their handlers. The context their tools
 * receive comes from the agents' tools room (`ToolHandleTypes`), which sits above the dispatch path.
 */
export interface EngineHandleTypes {
  executionContext: ExecutionContext;
  handlerUtils: ServiceHandlerUtils;
  serviceHooks: ResourceCustomServiceHooks;
}

// Handles are declared in shared-lib, which cannot import the engine: the engine lends them its types.
declare module '@wildo/shared-lib' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from EngineHandleTypes
  interface WildoEngineTypes extends EngineHandleTypes {}
}
