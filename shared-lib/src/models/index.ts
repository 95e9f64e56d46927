export { ConsumableToken_ConsumptionMode, CoreConsumableTokenTypes } from './consumable-token.js';
export { durationToMilliseconds, DurationUnit, type Duration } from './duration.js';
export { EngineCapability } from './engine-capability.js';
export { ExecutionContext_ExecutionType } from './execution-context.js';
export {
  CoreResourceOperation,
  RESOURCE_OPERATION_LIFECYCLES,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  type ResourceOperationEffectName,
  type ResourceOperationLifecycle,
} from './resource-operation.js';
export { ResourcePrimaryScope } from './resource-scope.js';
export { ResourceServerKind, type ResourceServerInstance } from './resource-server.js';
export { CORE_APP_ROLES, CORE_ORG_ROLES, CORE_ROLE_HIERARCHIES, type CoreAppRole, type CoreOrgRole } from './roles.js';
