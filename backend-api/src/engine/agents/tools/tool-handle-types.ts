import type { FunctionToolExecutionContext } from './function-tool.types.js';

/** The context the tools of resource handles (`tickets.tools.read()`) run with, lent to shared-lib's handle types. */
export interface ToolHandleTypes {
  toolContext: FunctionToolExecutionContext;
}

// Merged with the dispatch path's `EngineHandleTypes` into the one `WildoEngineTypes` of shared-lib.
declare module '@wildo/shared-lib' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from ToolHandleTypes
  interface WildoEngineTypes extends ToolHandleTypes {}
}
