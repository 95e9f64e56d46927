import type { SaaSConfigInput } from './saas-config.schema.js';

/**
 * Types the default export of `wildo.saas.config.ts`; returns its argument unchanged.
 *
 * @example
 * export default defineSaaSConfig({ application: { name: 'Todos', environment: APPLICATION_ENVIRONMENT.DEVELOPMENT } });
 */
export function defineSaaSConfig(config: SaaSConfigInput): SaaSConfigInput {
  return config;
}
