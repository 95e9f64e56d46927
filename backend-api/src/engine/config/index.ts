// Application configuration at run time: locate, load, validate, render and check `.wildo-saas/generated`.
export { hashCanonical, sortKeysDeep, toCanonicalJson } from './canonical-json.js';
export {
  CONFIG_FILE_NAME,
  GENERATED_DIR,
  GENERATED_FILES,
  GENERATION_FORMAT_VERSION,
  SYNC_COMMAND,
} from './config.constants.js';
export {
  ConfigInvalidError,
  ConfigLoadError,
  GenerationStaleError,
  ProjectRootNotFoundError,
  WildoConfigError,
  type WildoConfigErrorCode,
} from './config.errors.js';
export { loadConfigModule, loadSaaSConfig } from './config-loader.js';
export {
  renderGeneration,
  renderProviderCatalogTypes,
  renderRuntimeEnv,
  type RenderedGeneration,
} from './generation.render.js';
export {
  compareGeneration,
  writeGeneration,
  type GenerationComparison,
  type GenerationWriteResult,
} from './generation.store.js';
export { ENGINE_VERSION } from './engine-version.js';
export { findProjectRoot, isProjectRoot } from './project-root.js';
export { resolveProviderAvailability, type ProviderAvailability } from './provider-availability.js';
export { buildRuntimeConfiguration } from './runtime-configuration.build.js';
export { readRuntimeConfiguration } from './runtime-configuration.reader.js';
export {
  loadRuntimeConfiguration,
  prepareGeneration,
  type LoadRuntimeConfigurationOptions,
  type PreparedGeneration,
} from './runtime-configuration.loader.js';
export {
  RuntimeConfigurationSchema,
  RuntimeProviderRefSchema,
  RuntimeProviderSchema,
  RuntimeScopeSchema,
  RuntimeSelectionSchema,
  type RuntimeConfiguration,
  type RuntimeProviderRef,
  type RuntimeScope,
} from './runtime-configuration.schema.js';
