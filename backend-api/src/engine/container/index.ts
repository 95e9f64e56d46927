// The container's vocabulary: injection tokens (SAAS_SERVICE_TYPES), the clock, what every module gives the container.
export { type Clock, systemClock } from './clock.js';
export type { ModuleBase } from './module-base.js';
export { SAAS_SERVICE_TYPES } from './saas-service-types.tokens.js';
