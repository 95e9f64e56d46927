import type { z } from 'zod';
import type { AuthenticatedPrincipal } from '../../identity/principal.types.js';
import type { ExecutionContextCreator } from '../../resources/execution-context-creator.service.js';
import type { OperationAdmission } from '../../resources/operation-admission.service.js';
import type { OperationDispatcher } from '../../resources/operation-dispatcher.service.js';
import type { ResourcesRegistry } from '../../resources/resources-registry.service.js';
import type { ServicesRegistryHandler } from '../../resources/services-registry-handler.service.js';

/** The engine services a function tool may use. */
export interface FunctionToolServices {
  resourcesRegistry: ResourcesRegistry;
  servicesRegistryHandler: ServicesRegistryHandler;
  executionContextCreator: ExecutionContextCreator;
  operationDispatcher: OperationDispatcher;
  operationAdmission: OperationAdmission;
}

/**
 * What a tool receives besides the model's arguments: verified authentication of the conversation's owner,
 * the active organization, and the engine's services. Identity never comes from the model.
 */
export interface FunctionToolExecutionContext {
  services: FunctionToolServices;
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
