// `@wildo/backend-api/server`: start an application from its main.ts (environment, configuration, database,
// listener, graceful stop), and the pieces that start-up is made of.
export { createWildoServer, type WildoServer, type WildoServerOptions } from './create-wildo-server.js';
export {
  BackendEnvironmentSchema,
  InvalidEnvironmentError,
  parseBackendEnvironment,
  type BackendEnvironment,
} from '../environment.schema.js';
export { backendOptionsFromRuntime, resolvePublicUrls } from '../server-options.js';
export { loadStartupConfiguration, startupRefusalText } from '../startup.js';
