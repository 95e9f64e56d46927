import { ResourceOperationEffect } from '@wildo/shared-lib';
import { inject, injectable, optional } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import {
  DispatchCall,
  dispatchSteps,
  type AuditRecorder,
  type DispatchStep,
  type DispatchStepDependencies,
} from './dispatch-steps.js';
import type { DispatchRequest, DispatchResult } from './dispatch.types.js';

export type { DispatchRequest, DispatchResult } from './dispatch.types.js';

/**
 * The single dispatch path of every surface, as a list of named steps (see `dispatch-steps.ts`):
 * lifecycle → credential → context → authorize → policy → rate-policy → input → files → approval → service → projection.
 * Refusals happen before any side effect; each one is logged with the step that refused it.
 */
@injectable()
export class OperationDispatcher {
  private readonly steps: readonly DispatchStep[];

  constructor(
    @inject(SAAS_SERVICE_TYPES.ExecutionContextCreator) contexts: DispatchStepDependencies['contexts'],
    @inject(SAAS_SERVICE_TYPES.OperationAdmission) admission: DispatchStepDependencies['admission'],
    @inject(SAAS_SERVICE_TYPES.RateLimitService) rateLimits: DispatchStepDependencies['rateLimits'],
    @inject(SAAS_SERVICE_TYPES.ServicesRegistryHandler) services: DispatchStepDependencies['services'],
    @inject(SAAS_SERVICE_TYPES.StepUpService) stepUp: DispatchStepDependencies['stepUp'],
    @inject(SAAS_SERVICE_TYPES.Logger) private readonly logger: Logger,
    // Required: a dispatcher resolved before the check was bound would otherwise skip it (fail open).
    @inject(SAAS_SERVICE_TYPES.FileReferenceCheck) files: NonNullable<DispatchStepDependencies['files']>,
    // Optional: an operation that declares approval is refused without it (fail closed), see the `approval` step.
    @inject(SAAS_SERVICE_TYPES.OperationApprovals) @optional() approvals?: DispatchStepDependencies['approvals'],
    @inject(SAAS_SERVICE_TYPES.AuditTrail) @optional() private readonly audit?: AuditRecorder,
  ) {
    this.steps = dispatchSteps({
      contexts,
      admission,
      rateLimits,
      services,
      stepUp,
      files,
      ...(approvals ? { approvals } : {}),
    });
  }

  /** Runs one call through every step and returns the projected result. */
  async dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const call = new DispatchCall(request);
    const steps = this.steps;
    const started = performance.now();
    let i = 0;
    try {
      for (; i < steps.length; i++) {
        const pending = steps[i]?.run(call);
        if (pending) await pending;
      }
    } catch (error) {
      const step = steps[i];
      if (step) this.logRefusal(step, request, error);
      // A refused or failed call changed nothing: its answer does not wait for its entry (stored in the next batch).
      if (this.audit && step)
        void this.audit.record({ request, phase: step.name, error, durationMs: performance.now() - started });
      throw error;
    }
    if (this.audit) {
      const stored = this.audit.record({
        request,
        phase: 'projection',
        error: undefined,
        durationMs: performance.now() - started,
      });
      // A change is acknowledged only once its entry is stored; a read is answered at once, its entry batched behind.
      if (request.operation.effect !== ResourceOperationEffect.READ) await stored;
    }
    return call.result;
  }

  /** One line per refused call, naming the step; failures that are not refusals are logged by the surface. */
  private logRefusal(step: DispatchStep, request: DispatchRequest, error: unknown): void {
    const refusal = error instanceof FrameworkError && error.code !== 'INTERNAL' ? error : undefined;
    this.logger.info(refusal ? 'dispatch refused' : 'dispatch failed', {
      step: step.name,
      operation: request.operation.servicePath,
      surface: request.surface,
      requestId: request.requestId,
      ...(refusal ? { code: refusal.code, ...(refusal.reason ? { reason: refusal.reason } : {}) } : {}),
    });
  }
}
