// The `wildo` command line: the command tree and a function form of it for tests and embedding.
export { createCapturedOutput, type CliOutput } from './cli.output.js';
export { runConfigSync, type ConfigSyncOptions } from './config-sync.command.js';
export { APPLICATION_EXPORT, APPLICATION_MODULE_FILE, runExposure, type ExposureOptions } from './exposure.command.js';
export { renderExposureReport, type ExposureSource } from './exposure.render.js';
export { main } from './main.js';
export {
  APPLICATION_ROLES,
  changeApplicationRole,
  runUsersRoleCommand,
  type ApplicationRoleChangeOptions,
  type RoleChangeKind,
  type UsersRoleCommandOptions,
} from './users.command.js';
export { createWildoProgram, runWildoCli, type CliResult, type RunWildoCliOptions } from './wildo.cli.js';
