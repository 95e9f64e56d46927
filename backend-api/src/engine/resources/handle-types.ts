import type { FunctionToolExecutionContext } from '../agents/tools/function-tool.types.js';
import type { ResourceCustomServiceHooks, ServiceHandlerUtils } from './custom-service.js';
import type { ExecutionContext } from './execution-context.js';

/** The engine's types that resource handles (`defineResource(...)`) use for their handlers and tools. */
export interface EngineHandleTypes {
  executionContext: ExecutionContext;
  handlerUtils: ServiceHandlerUtils;
  serviceHooks: ResourceCustomServiceHooks;
  toolContext: FunctionToolExecutionContext;
}

// Handles are declared in shared-lib, which cannot import the engine: the engine lends them its types.
declare module '@wildo/shared-lib' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from EngineHandleTypes
  interface WildoEngineTypes extends EngineHandleTypes {}
}
