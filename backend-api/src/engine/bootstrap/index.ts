// Start-up: createWildoBackend builds the container from the application, validates it and serves it.
export {
  type BackendApplicationDefinition,
  type BackendDomainModule,
  defineBackendApplication,
} from './backend-domain-module.js';
export {
  type DeclarationValidationOptions,
  type ValidatedApplication,
  validateDeclarations,
} from './application-declarations.js';
export {
  createWildoBackend,
  DEFAULT_DRAIN_BOUND_MS,
  type WildoBackend,
  type WildoBackendOptions,
} from './wildo-backend.js';
export { withEngineModules } from './engine-modules.js';
export { buildExposureReport } from './exposure-report.js';
