// Resources: declarations compiled into a registry, and the one dispatch path every surface goes through.
export { type DeclarationProblem, DeclarationValidationError } from './resources.errors.js';
export { rateLimited, RateLimitService } from './rate-limit.service.js';
export { ExecutionContextCreator } from './execution-context-creator.service.js';
export { type DispatchRequest, type DispatchResult, OperationDispatcher } from './operation-dispatcher.service.js';
export { compileApplicationResources, ResourcesRegistry } from './resources-registry.service.js';
export { checkRecordId, inputInvalid, parseContract, refuseUnstorableText } from './operation-input.js';
export {
  type AnyCustomOperationHandler,
  createResourceCustomServiceImplementation,
  type CustomOperationArgs,
  type CustomOperationHandler,
  type ErrorBuilder,
  type PostfixCoreHandler,
  type PrefixCoreHandler,
  type RecordGuard,
  type ResourceCustomServiceHooks,
  type ResourceCustomServiceImplementation,
  type ResourceRecord,
  type ScopedRecords,
  type ServiceHandlerUtils,
} from './custom-service.js';
export type { DispatchSurface, ExecutionContext } from './execution-context.js';
export type { ResourcesApplication, ResourcesModule } from './resources-module.js';
export { servicePathOf } from './resource-naming.js';
export type { CompiledOperation, CompiledResource } from './compiled-resource.types.js';
export { checkLifecycle, confinedToOwnRecords, OperationAdmission } from './operation-admission.service.js';
export { ServicesRegistryHandler } from './services-registry-handler.service.js';
export { insertRecord, patchRecord, scopeFor } from './record-access.js';
export type { EngineHandleTypes } from './handle-types.js';
export type {
  AcceptedInput,
  ApprovalCall,
  ApprovalGate,
  AuditRecorder,
  DispatchRecord,
  DispatchStepName,
} from './dispatch-steps.js';
export { admissionRefusal } from './dispatch-steps.js';
export {
  ResourceDescriptions,
  type ResourceDescriptionJudges,
  type ResourceDescriptionsOptions,
} from './resource-descriptions.js';
