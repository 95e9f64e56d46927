// Function tools: their contract, resource tools, the caller they dispatch through, the tool set of a turn.
export {
  createToolCaller,
  type ToolCaller,
  type ToolCallIdentity,
  type ToolCallResult,
  toolDispatchPath,
  type ToolDispatchPath,
  type ToolListOptions,
  type ToolOperationCall,
  type ToolRecordPage,
  type ToolRecords,
} from './tool-caller.js';
export { buildTurnTools, type ToolOutcome, type TurnTool, TurnToolSet } from './turn-tools.js';
export type {
  FunctionTool,
  FunctionToolExecutionContext,
  FunctionToolResourceOperation,
} from './function-tool.types.js';
export {
  READ_TOOL_MAX_RECORDS,
  resourceReadTool,
  resourceWriteTool,
  type ResourceWriteToolOptions,
} from './resource-tools.js';
export type { ToolHandleTypes } from './tool-handle-types.js';
export { createToolExecutionContext, type ToolCallSite } from './tool-execution-context.js';
