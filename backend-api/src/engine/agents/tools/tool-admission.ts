import { FrameworkError } from '../../errors/index.js';
import type { ExecutionContext } from '../../resources/execution-context.js';
import type { FunctionToolExecutionContext } from './function-tool.types.js';

/**
 * Admission for a custom tool that calls a service directly: resolves the operation, rebuilds the execution
 * context from the conversation's verified authentication and runs lifecycle, roles and the rate policy, as the
 * dispatcher would. `executeCustomOperation` alone does not do this.
 *
 * @example
 * const executionContext = await admitToolOperation(ctx, 'knowledge-documents', 'ask');
 * await ctx.services.servicesRegistryHandler.executeCustomOperation('knowledge-documents', 'ask', executionContext, undefined, input);
 */
export async function admitToolOperation(ctx: FunctionToolExecutionContext, resourceType: string, operation: string): Promise<ExecutionContext> {
  const { resourcesRegistry, executionContextCreator, operationAdmission } = ctx.services;
  const compiled = resourcesRegistry.findOperation(resourcesRegistry.getServiceOperationPathDefault(resourceType, operation));
  if (!compiled) throw new FrameworkError('NOT_FOUND', 'No such operation.');
  operationAdmission.checkLifecycle(compiled);
  const executionContext = await executionContextCreator.buildContextFromSocketAuth(
    ctx.auth,
    compiled,
    ctx.organizationId ? { organizationId: ctx.organizationId } : {},
    ctx.requestId,
  );
  await operationAdmission.admit(compiled, { ...executionContext, surface: 'tool' });
  return { ...executionContext, surface: 'tool' };
}
