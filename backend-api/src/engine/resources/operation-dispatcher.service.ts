import { CoreResourceOperation } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import { FrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/principal.types.js';
import type { StepUpService } from '../identity/step-up.service.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { ResourceRecord } from './custom-service.js';
import type { DispatchSurface, ExecutionContext } from './execution-context.js';
import type { ContextIds, ExecutionContextCreator } from './execution-context-creator.service.js';
import type { OperationAdmission } from './operation-admission.service.js';
import { checkRecordId, isPaged, parseListArguments, parseListQuery, searchQueryOf, validateBody, type PageQuery } from './operation-input.js';
import type { RecordPage, ServicesRegistryHandler } from './services-registry-handler.service.js';

/** One call to one operation, as a surface received it. */
export interface DispatchRequest {
  operation: CompiledOperation;
  /** The verified caller; null when the request carried no credential. */
  principal: AuthenticatedPrincipal | null;
  surface: DispatchSurface;
  requestId: string;
  contextIds: ContextIds;
  id?: string;
  /** JSON body (CREATE, UPDATE, SEARCH, custom operations). */
  body?: unknown;
  /** Raw query parameters (LIST over REST: strings to decode). */
  query?: Record<string, unknown>;
  /** Typed LIST arguments (LIST through a tool: JSON values). */
  listArguments?: Record<string, unknown>;
  /** The record version the caller last saw (HTTP If-Match). */
  expectedVersion?: number;
  /** Receives the paths projection removed, for surfaces that report them. */
  withheld?: string[];
  /** A step-up proof (`x-reauth-token`), for operations that require one. */
  reauthToken?: string;
}

/** A projected result. `version` is the record version for single-record results (HTTP ETag). */
export interface DispatchResult {
  data: unknown;
  nextCursor?: string | null;
  version?: number;
}

/**
 * The single dispatch path of every surface: lifecycle → credential → execution context (tenant, roles)
 * → authorization → rate policy → strict input validation → service pipeline → projection through the
 * operation's response contract. Refusals happen before any side effect.
 */
@injectable()
export class OperationDispatcher {
  constructor(
    @inject(SAAS_SERVICE_TYPES.ExecutionContextCreator) private readonly contexts: ExecutionContextCreator,
    @inject(SAAS_SERVICE_TYPES.OperationAdmission) private readonly admission: OperationAdmission,
    @inject(SAAS_SERVICE_TYPES.ServicesRegistryHandler) private readonly services: ServicesRegistryHandler,
    @inject(SAAS_SERVICE_TYPES.StepUpService) private readonly stepUp: StepUpService,
  ) {}

  /** Runs one call through the whole path and returns the projected result. */
  async dispatch(request: DispatchRequest): Promise<DispatchResult> {
    const { operation } = request;
    this.admission.checkLifecycle(operation);
    if (!request.principal) {
      throw new FrameworkError('UNAUTHENTICATED', 'Authentication is required.', { reason: 'no_credential' });
    }
    const context = await this.contexts.buildContext(request.principal, operation, request.contextIds, {
      surface: request.surface,
      requestId: request.requestId,
    });
    await this.admission.admit(operation, context);
    const id = operation.target === 'instance' ? checkRecordId(request.id) : undefined;
    const raw = await this.execute(operation, context, id, request);
    return this.project(operation, raw, request.withheld);
  }

  /**
   * Consumes the step-up proof an operation requires. The service pipeline calls it as the call's gate, after
   * the input, the addressed record and the resource's guard were checked: a refused call does not burn it.
   */
  private async requireStepUp(operation: CompiledOperation, context: ExecutionContext, token: string | undefined): Promise<void> {
    if (!operation.requiresReauthentication) return;
    const userId = context.initiatorIds.userId;
    if (context.principal?.kind !== 'user' || !userId) {
      throw new FrameworkError('FORBIDDEN', 'This operation needs a person to re-authenticate.', { reason: 'principal_not_allowed' });
    }
    if (!token || !(await this.stepUp.consume(token, userId))) {
      throw new FrameworkError('FORBIDDEN', 'Re-authenticate first: send a fresh proof from POST /api/v1/auth/reauth in x-reauth-token.', {
        reason: 'step_up_required',
      });
    }
  }

  private async execute(operation: CompiledOperation, context: ExecutionContext, id: string | undefined, request: DispatchRequest): Promise<unknown> {
    const gate = operation.requiresReauthentication ? () => this.requireStepUp(operation, context, request.reauthToken) : undefined;
    const common = { ...(operation.isDefault ? {} : { variantKey: operation.variantKey }), ...(gate ? { gate } : {}) };
    if (operation.kind === 'custom') {
      const input = validateBody(operation, request.body);
      return this.services.executeCustomOperation(operation.resourceType, operation.operation, context, id, input, common);
    }
    const core = operation.core as CoreResourceOperation;
    let input: unknown;
    let query: PageQuery | undefined;
    if (core === CoreResourceOperation.LIST) {
      validateBody(operation, request.body);
      query = request.listArguments ? parseListArguments(operation, request.listArguments) : parseListQuery(operation, request.query ?? {});
    } else if (core === CoreResourceOperation.SEARCH) {
      query = searchQueryOf(operation, validateBody(operation, request.body) as Parameters<typeof searchQueryOf>[1]);
    } else {
      input = validateBody(operation, request.body);
    }
    return this.services.executeCoreOperation(operation.resourceType, core, context, id, input, {
      ...common,
      ...(request.expectedVersion !== undefined ? { expectedVersion: request.expectedVersion } : {}),
      ...(query ? { query } : {}),
    });
  }

  private project(operation: CompiledOperation, raw: unknown, withheld: string[] | undefined): DispatchResult {
    if (isPaged(operation)) {
      const page = raw as RecordPage;
      const data = page.data.map((record, i) => {
        const local: string[] | undefined = withheld ? [] : undefined;
        const projected = operation.projector.project(record, local);
        local?.forEach((path) => withheld?.push(`data[${i}]${path === '*' ? '.*' : `.${path}`}`));
        return projected;
      });
      return { data, nextCursor: page.nextCursor };
    }
    const data = operation.projector.project(raw, withheld);
    const version = operation.kind === 'core' ? (raw as Partial<ResourceRecord>).version : undefined;
    return { data: data ?? null, ...(typeof version === 'number' ? { version } : {}) };
  }
}
