import { CoreResourceOperation } from '@wildo/shared-lib';
import { FrameworkError } from '../errors/index.js';
import {
  breachesContract,
  contractViolation,
  enforcePrincipalPolicy,
  newProjectionReport,
} from '../governance/index.js';
import type { AuthenticatedPrincipal, StepUpService } from '../identity/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { ResourceRecord } from './custom-service.js';
import type { DispatchRequest, DispatchResult } from './dispatch.types.js';
import type { ExecutionContext } from './execution-context.js';
import type { ExecutionContextCreator } from './execution-context-creator.service.js';
import type { OperationAdmission } from './operation-admission.service.js';
import {
  checkRecordId,
  isPaged,
  parseListArguments,
  parseListQuery,
  searchQueryOf,
  validateBody,
  type PageQuery,
} from './operation-input.js';
import type { RateLimitService } from './rate-limit.service.js';
import type { CoreOperationOptions, CustomOperationOptions, RecordPage } from './services-registry-handler.service.js';

/** The steps of the dispatch path, in the order they run. */
export const DISPATCH_STEP_NAMES = [
  'lifecycle',
  'credential',
  'context',
  'authorize',
  'policy',
  'rate-policy',
  'input',
  'files',
  'approval',
  'service',
  'projection',
] as const;

/** One of {@link DISPATCH_STEP_NAMES}. */
export type DispatchStepName = (typeof DISPATCH_STEP_NAMES)[number];

/** The input of a call once its contract accepted it. */
export interface AcceptedInput {
  /** The addressed record (instance operations). */
  id?: string;
  /** The body as the contract parsed it (CREATE, UPDATE, custom operations). */
  body?: unknown;
  /** LIST and SEARCH paging, filters and words. */
  query?: PageQuery;
}

/** A programming error: a step read what an earlier step should have established. */
const notYet = (what: string, step: DispatchStepName): never => {
  throw new Error(`dispatch step order: ${what} is read before the "${step}" step established it`);
};

/**
 * One call on its way through the steps: the request, and what each step established for the ones after it.
 * Reading a value before its step ran is a programming error and throws, naming the step.
 */
export class DispatchCall {
  private establishedPrincipal: AuthenticatedPrincipal | undefined;
  private establishedContext: ExecutionContext | undefined;
  private acceptedInput: AcceptedInput | undefined;
  private serviceRan = false;
  private serviceResult: unknown;
  private projected: DispatchResult | undefined;

  constructor(readonly request: DispatchRequest) {}

  /** The addressed operation. */
  get operation(): CompiledOperation {
    return this.request.operation;
  }

  /** The verified caller (`credential`). */
  get principal(): AuthenticatedPrincipal {
    return this.establishedPrincipal ?? notYet('the principal', 'credential');
  }
  set principal(principal: AuthenticatedPrincipal) {
    this.establishedPrincipal = principal;
  }

  /** Tenant and roles (`context`). */
  get context(): ExecutionContext {
    return this.establishedContext ?? notYet('the execution context', 'context');
  }
  set context(context: ExecutionContext) {
    this.establishedContext = context;
  }

  /** The accepted input (`input`). */
  get input(): AcceptedInput {
    return this.acceptedInput ?? notYet('the input', 'input');
  }
  set input(input: AcceptedInput) {
    this.acceptedInput = input;
  }

  /** What the service pipeline returned, unprojected (`service`). */
  get raw(): unknown {
    return this.serviceRan ? this.serviceResult : notYet('the service result', 'service');
  }
  set raw(value: unknown) {
    this.serviceRan = true;
    this.serviceResult = value;
  }

  /** The projected result (`projection`). */
  get result(): DispatchResult {
    return this.projected ?? notYet('the result', 'projection');
  }
  set result(result: DispatchResult) {
    this.projected = result;
  }
}

/** One named step. A step that finishes synchronously returns nothing (no await is spent on it). */
export interface DispatchStep {
  readonly name: DispatchStepName;
  run(call: DispatchCall): void | Promise<void>;
}

/** The collaborators of the steps. */
export interface DispatchStepDependencies {
  contexts: Pick<ExecutionContextCreator, 'buildContext'>;
  admission: Pick<OperationAdmission, 'checkLifecycle' | 'authorize'>;
  rateLimits: Pick<RateLimitService, 'chargeOperation' | 'chargePolicy'>;
  /** The service pipeline (the services registry handler). */
  services: {
    executeCoreOperation(
      type: string,
      operation: CoreResourceOperation,
      context: ExecutionContext,
      id?: string,
      input?: unknown,
      options?: CoreOperationOptions,
    ): Promise<unknown>;
    executeCustomOperation(
      type: string,
      operation: string,
      context: ExecutionContext,
      id?: string,
      input?: unknown,
      options?: CustomOperationOptions,
    ): Promise<unknown>;
  };
  stepUp: Pick<StepUpService, 'consume'>;
  /** The early check of `z_file` values (the store checks every write anyway); absent: refused only at the store. */
  files?: FileReferencesStep;
  /** The approval step; absent, an operation that declares approval is refused. */
  approvals?: ApprovalGate;
}

/** One call that needs a person's approval, as the approval capability sees it. */
export interface ApprovalCall {
  operation: CompiledOperation;
  principal: AuthenticatedPrincipal;
  surface: DispatchRequest['surface'];
  organizationId: string | undefined;
  /** The accepted input: what the approval binds (by a stable digest) and what the person is shown. */
  input: AcceptedInput;
  approvalId: string | undefined;
  conversationApproval: { approvalId: string } | undefined;
}

/**
 * The `approval` step, provided by the approvals capability: admits a call a person approved (once), or refuses it
 * with the pending approval to decide. Absent: an operation that declares approval is refused (fail closed).
 */
export interface ApprovalGate {
  admit(call: ApprovalCall): Promise<void>;
}

/** What the audit trail learns of one dispatched call: where it ended and how, never its input or output. */
export interface DispatchRecord {
  request: DispatchRequest;
  /** The step that refused or failed it; `projection` for a call that ran to its answer. */
  phase: DispatchStepName;
  /** What it was refused or failed with; undefined when it ran. */
  error: unknown;
  durationMs: number;
}

/** Records every dispatched call, executed or refused; the call is answered once its entry is stored. */
export interface AuditRecorder {
  record(entry: DispatchRecord): Promise<void>;
}

/** The `files` step, provided by the files capability: nothing to await unless a CREATE or UPDATE body names files. */
export interface FileReferencesStep {
  check(operation: CompiledOperation, context: ExecutionContext, body: unknown): Promise<void> | undefined;
}

/** The allow and deny lists of an operation's policies (the `policy` step, before its rate limit). */
function checkPrincipalPolicy(
  operation: CompiledOperation,
  principal: AuthenticatedPrincipal,
  context: ExecutionContext,
): void {
  if (operation.policies) enforcePrincipalPolicy(operation.policies, { principal, roles: context.initiatorRoles });
}

/**
 * What the dispatch path's admission steps (`lifecycle`, `authorize`, and the allow and deny lists of `policy`)
 * answer a caller whose context is built: undefined when they admit the call, else their refusal. The same checks
 * the steps run, in their order; nothing is charged and no input is read. Pages ask it to offer only what works.
 */
export function admissionRefusal(
  admission: DispatchStepDependencies['admission'],
  operation: CompiledOperation,
  principal: AuthenticatedPrincipal,
  context: ExecutionContext,
): FrameworkError | undefined {
  try {
    admission.checkLifecycle(operation);
    admission.authorize(operation, context);
    checkPrincipalPolicy(operation, principal, context);
    return undefined;
  } catch (error) {
    if (error instanceof FrameworkError) return error;
    throw error;
  }
}

/** Refuses a request that carried no credential. */
function requirePrincipal(principal: AuthenticatedPrincipal | null): AuthenticatedPrincipal {
  if (!principal)
    throw new FrameworkError('UNAUTHENTICATED', 'Authentication is required.', { reason: 'no_credential' });
  return principal;
}

/** The record id (instance operations) and the body or query, each against the operation's strict contract. */
export function acceptInput(operation: CompiledOperation, request: DispatchRequest): AcceptedInput {
  const id = operation.target === 'instance' ? checkRecordId(request.id) : undefined;
  const accepted: AcceptedInput = id === undefined ? {} : { id };
  if (operation.kind === 'custom') {
    accepted.body = validateBody(operation, request.body);
  } else if (operation.core === CoreResourceOperation.LIST) {
    validateBody(operation, request.body);
    accepted.query = request.listArguments
      ? parseListArguments(operation, request.listArguments)
      : parseListQuery(operation, request.query ?? {});
  } else if (operation.core === CoreResourceOperation.SEARCH) {
    accepted.query = searchQueryOf(
      operation,
      validateBody(operation, request.body) as Parameters<typeof searchQueryOf>[1],
    );
  } else {
    accepted.body = validateBody(operation, request.body);
  }
  return accepted;
}

/**
 * Consumes the step-up proof an operation requires. The service pipeline calls it as the call's gate, after
 * the input, the addressed record and the resource's guard were checked: a refused call does not burn it.
 */
async function requireStepUp(
  stepUp: DispatchStepDependencies['stepUp'],
  context: ExecutionContext,
  token: string | undefined,
): Promise<void> {
  const userId = context.initiatorIds.userId;
  if (context.principal?.kind !== 'user' || !userId) {
    throw new FrameworkError('FORBIDDEN', 'This operation needs a person to re-authenticate.', {
      reason: 'principal_not_allowed',
    });
  }
  if (!token || !(await stepUp.consume(token, userId))) {
    throw new FrameworkError(
      'FORBIDDEN',
      'Re-authenticate first: send a fresh proof from POST /api/v1/auth/reauth in x-reauth-token.',
      {
        reason: 'step_up_required',
      },
    );
  }
}

/** The `approval` step of a call whose operation declares approval. */
function admitApproved(gate: ApprovalGate | undefined, call: DispatchCall): Promise<void> {
  if (!gate)
    return Promise.reject(
      new FrameworkError('SERVICE_UNAVAILABLE', 'Approvals cannot be checked right now; try again later.', {
        reason: 'approval_not_evaluable',
      }),
    );
  const { request } = call;
  return gate.admit({
    operation: call.operation,
    principal: call.principal,
    surface: request.surface,
    organizationId: request.contextIds.organizationId,
    input: call.input,
    approvalId: request.approvalId,
    conversationApproval: request.conversationApproval,
  });
}

/** Runs the service pipeline (addressed record, guard, step-up gate, prefix, persistence, postfix). */
function runService(deps: DispatchStepDependencies, call: DispatchCall): Promise<unknown> {
  const { operation, context, request } = call;
  const { id, body, query } = call.input;
  const gate = operation.requiresReauthentication
    ? () => requireStepUp(deps.stepUp, context, request.reauthToken)
    : undefined;
  const common = { ...(operation.isDefault ? {} : { variantKey: operation.variantKey }), ...(gate ? { gate } : {}) };
  if (operation.kind === 'custom')
    return deps.services.executeCustomOperation(operation.resourceType, operation.operation, context, id, body, common);
  return deps.services.executeCoreOperation(
    operation.resourceType,
    operation.core as CoreResourceOperation,
    context,
    id,
    body,
    {
      ...common,
      ...(request.expectedVersion !== undefined ? { expectedVersion: request.expectedVersion } : {}),
      ...(query ? { query } : {}),
    },
  );
}

/**
 * Projects a result through the operation's response contract (per record for pages, `data[i]` in the paths).
 * A result that breaks the contract is refused whole (`CONTRACT_VIOLATION`); what was withheld is reported with it.
 */
export function project(operation: CompiledOperation, raw: unknown): DispatchResult {
  const report = newProjectionReport();
  let result: DispatchResult;
  if (isPaged(operation)) {
    const page = raw as RecordPage;
    const data = page.data.map((record, i) => operation.projector.project(record, report, `data[${i}]`));
    result = { data, nextCursor: page.nextCursor };
  } else {
    const data = operation.projector.project(raw, report);
    const version = operation.kind === 'core' ? (raw as Partial<ResourceRecord> | null)?.version : undefined;
    result = { data: data ?? null, ...(typeof version === 'number' ? { version } : {}) };
  }
  if (breachesContract(report)) throw contractViolation(report);
  if (report.withheld.length > 0) result.withheld = report.withheld;
  return result;
}

/**
 * The dispatch path as data: one named step per rule, in {@link DISPATCH_STEP_NAMES} order. Every refusal
 * happens in a step before `service`, except what only the pipeline can judge (the addressed record, the
 * resource's guard, the step-up proof), which it judges before any side effect.
 *
 * @example
 * for (const step of dispatchSteps(deps)) await step.run(call);
 */
export function dispatchSteps(deps: DispatchStepDependencies): readonly DispatchStep[] {
  const steps: DispatchStep[] = [
    { name: 'lifecycle', run: (call) => deps.admission.checkLifecycle(call.operation) },
    {
      name: 'credential',
      run: (call) => {
        call.principal = requirePrincipal(call.request.principal);
      },
    },
    {
      name: 'context',
      run: (call) => {
        const { request } = call;
        return deps.contexts
          .buildContext(call.principal, call.operation, request.contextIds, {
            surface: request.surface,
            requestId: request.requestId,
          })
          .then((context) => {
            call.context = context;
          });
      },
    },
    { name: 'authorize', run: (call) => deps.admission.authorize(call.operation, call.context) },
    // The operation's own policies (allow and deny lists, then a rate limit per caller across every surface).
    // Most operations declare none: nothing is awaited for them.
    {
      name: 'policy',
      run: (call) => {
        const { policies } = call.operation;
        if (!policies) return;
        checkPrincipalPolicy(call.operation, call.principal, call.context);
        return policies.rateLimit ? deps.rateLimits.chargePolicy(call.operation, call.context) : undefined;
      },
    },
    // Most operations declare no rate policy: no await is spent on them.
    {
      name: 'rate-policy',
      run: (call) =>
        call.operation.rateLimit ? deps.rateLimits.chargeOperation(call.operation, call.context) : undefined,
    },
    {
      name: 'input',
      run: (call) => {
        call.input = acceptInput(call.operation, call.request);
      },
    },
    // The store refuses such writes on every path; asked here too, a request is refused before prefix handlers run.
    // Only a body that names files awaits anything.
    { name: 'files', run: (call) => deps.files?.check(call.operation, call.context, call.input.body) },
    // Only operations that declare approval await anything; a call reaches the service (and any backend) only with
    // a person's approval of this exact input.
    {
      name: 'approval',
      run: (call) => (call.operation.approval ? admitApproved(deps.approvals, call) : undefined),
    },
    {
      name: 'service',
      run: (call) =>
        runService(deps, call).then((raw) => {
          call.raw = raw;
        }),
    },
    {
      name: 'projection',
      run: (call) => {
        call.result = project(call.operation, call.raw);
      },
    },
  ];
  return steps;
}
