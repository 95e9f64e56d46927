import type { z } from 'zod';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import type { ToolCaller } from './tool-caller.js';

/**
 * What a tool receives besides the model's arguments: the verified authentication of the conversation's owner
 * (a frozen copy), the active organization, and a {@link ToolCaller} that dispatches as that owner. Identity
 * never comes from the model, and no engine service is handed out: every call a tool makes is admitted like a
 * REST call of the same person.
 */
export interface FunctionToolExecutionContext extends ToolCaller {
  auth: AuthenticatedPrincipal;
  organizationId?: string;
  /** The conversation the call belongs to. */
  executionId: string;
  requestId: string;
  signal?: AbortSignal;
}

/** The resource operation a tool dispatches (`resourceType.operation`, a named variant when not the default). */
export interface FunctionToolResourceOperation {
  resourceType: string;
  /** A core operation (`read`, `update`, ...) or a custom operation key (`complete`). */
  operation: string;
  /** A non-default variant's key; absent for the default variant. */
  variantKey?: string;
}

/** A function tool an agent may call: registered through a module's `flowsActors.functionTools`. */
export interface FunctionTool<TArgs extends z.ZodObject = z.ZodObject> {
  functionRef: string;
  /**
   * Set by tools over a resource operation (`resourceReadTool`, `resourceWriteTool`): start-up refuses the tool
   * when no module registers the resource, or the resource does not declare the operation (or variant).
   */
  resourceOperation?: FunctionToolResourceOperation;
  description: string;
  inputSchema: TArgs;
  /** Pause each call for a person's decision before any effect. */
  requiresHumanApproval?: boolean;
  /** Whether the person may change the arguments when approving (default true). */
  allowArgumentModification?: boolean;
  /**
   * The tool only reads (default false). A read's result is stored with the rest of the turn; a tool with effects
   * has its call stored before it runs and its result right after.
   */
  readOnly?: boolean;
  execute(args: z.infer<TArgs>, ctx: FunctionToolExecutionContext): Promise<unknown>;
}
