// `create-wildo`: scaffolds a Wildo application (`npm create wildo@latest <dir>`, the same as `wildo new <dir>`).
export { parseScaffoldArguments, runScaffolder, SCAFFOLD_USAGE } from './cli.js';
export { applicationFiles, FRAMEWORK_VERSION, scaffoldApplication, type ScaffoldResult } from './scaffold.js';
export {
  FRAMEWORK_PACKAGES,
  moduleNames,
  PACKAGE_MANAGERS,
  resolveScaffold,
  ScaffoldError,
  type FrameworkPackage,
  type ModuleNames,
  type PackageManager,
  type ResolvedScaffold,
  type ScaffoldOptions,
} from './scaffold-options.js';
export { THIRD_PARTY_VERSIONS } from './templates.js';
