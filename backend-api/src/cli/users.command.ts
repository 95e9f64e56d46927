import { existsSync } from 'node:fs';
import type { CoreAppRole } from '@wildo/shared-lib';
import { embeddedDatabaseDir, openApplicationDatabase } from '../engine/bootstrap/application-database.js';
import { systemClock } from '../engine/container/clock.js';
import { createCoordination } from '../engine/coordination/index.js';
import type { CoordinationBackend } from '../engine/coordination/coordination.js';
import { FrameworkError } from '../engine/errors/index.js';
import { IDENTITY_MIGRATIONS } from '../engine/identity/identity.migrations.js';
import { PasswordHasher } from '../engine/identity/password-hasher.service.js';
import { PRINCIPAL_CACHE_TTL_MS, SqlPrincipalDirectory } from '../engine/identity/sql-principal-directory.service.js';
import { UsersService, type ApplicationRoleChange } from '../engine/identity/users.service.js';
import { createSilentLogger, type Logger } from '../engine/logging/index.js';
import type { SqlDatabase } from '../engine/persistence/sql-database.js';
import { runMigrations } from '../engine/persistence/sql-migrations.js';
import { BackendEnvironmentSchema } from '../environment.schema.js';
import { storeOptionsFromEnvironment, type StoreOptions } from '../server-options.js';
import type { CliOutput } from './cli.output.js';
import { APPLICATION_ROLES, type RoleChangeKind } from './command-help.js';
import { resolveProjectRoot, type ProjectRootOptions } from './project-root.js';

export { APPLICATION_ROLES, USERS_ROLE_HELP, type RoleChangeKind } from './command-help.js';

/** What to change, and where the application's state lives. */
export interface ApplicationRoleChangeOptions {
  email: string;
  role: string;
  change: RoleChangeKind;
  store: StoreOptions & {
    /** PostgreSQL schema search path (tests isolate themselves with their own schema). */
    searchPath?: string;
    /** Redis key prefix of the backend's coordination (default `wildo:`, as the backend uses). */
    coordinationKeyPrefix?: string;
  };
}

/** Options of `wildo users grant-role|revoke-role` as the command line gives them. */
export interface UsersRoleCommandOptions extends ProjectRootOptions {
  email: string;
  role: string;
  change: RoleChangeKind;
  env: Readonly<Record<string, string | undefined>>;
}

/** A refusal worth one line and exit code 1. */
class RoleCommandError extends Error {}

/** Resolves the stores from the environment as the backend does (the project root only when the default data directory is needed). */
export async function runUsersRoleCommand(options: UsersRoleCommandOptions, output: CliOutput): Promise<number> {
  const env = BackendEnvironmentSchema.pick({ DATABASE_URL: true, WILDO_DATA_DIR: true, REDIS_URL: true }).parse(
    options.env,
  );
  try {
    const rootDir = env.DATABASE_URL || env.WILDO_DATA_DIR ? options.cwd : resolveProjectRoot(options);
    return await changeApplicationRole(
      {
        email: options.email,
        role: options.role,
        change: options.change,
        store: storeOptionsFromEnvironment(env, rootDir),
      },
      output,
    );
  } catch (error) {
    output.err(`${commandName(options.change)}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * Grants or revokes one application role of an existing account, on the server: opens the application's
 * database as the backend does, runs the identity migrations if needed, changes the role (bumping the
 * authorization version) and, with Redis, announces the change to running replicas. Prints what changed;
 * refuses an unknown role or account with one line. Returns the exit code.
 */
export async function changeApplicationRole(options: ApplicationRoleChangeOptions, output: CliOutput): Promise<number> {
  const command = commandName(options.change);
  const role = APPLICATION_ROLES.find((known) => known === options.role);
  if (!role) {
    output.err(`${command}: unknown application role "${options.role}"; use one of ${APPLICATION_ROLES.join(', ')}.`);
    return 1;
  }
  const warnings: string[] = [];
  let database: SqlDatabase | undefined;
  let coordination: CoordinationBackend | undefined;
  try {
    database = await openDatabase(options.store);
    await runMigrations(database, IDENTITY_MIGRATIONS, createSilentLogger());
    coordination = createCoordination({
      redisUrl: options.store.redisUrl,
      keyPrefix: options.store.coordinationKeyPrefix,
      logger: createSilentLogger(),
    });
    const directory = new SqlPrincipalDirectory(database, coordination, systemClock, warningCollector(warnings));
    const users = new UsersService(database, new PasswordHasher(), directory, systemClock);
    const outcome = await users.changeApplicationRole(options.email, role, options.change);
    for (const line of describeOutcome(outcome, role, options, warnings)) output.out(line);
    return 0;
  } catch (error) {
    output.err(`${command}: ${describeFailure(error, options.email)}`);
    return 1;
  } finally {
    await coordination?.close();
    await database?.close();
  }
}

function commandName(change: RoleChangeKind): string {
  return `wildo users ${change}-role`;
}

/** PostgreSQL, or the embedded database only where the backend created one (never a new, empty one). */
async function openDatabase(store: ApplicationRoleChangeOptions['store']): Promise<SqlDatabase> {
  if (!store.databaseUrl && !existsSync(embeddedDatabaseDir(store.dataDir))) {
    throw new RoleCommandError(
      `no embedded database at ${embeddedDatabaseDir(store.dataDir)}; start the backend once, or set DATABASE_URL or WILDO_DATA_DIR as the backend has them.`,
    );
  }
  return openApplicationDatabase({ ...store, logger: createSilentLogger() });
}

function describeOutcome(
  outcome: ApplicationRoleChange,
  role: CoreAppRole,
  options: ApplicationRoleChangeOptions,
  warnings: readonly string[],
): string[] {
  const { user, changed } = outcome;
  if (!changed)
    return [`${user.email} ${options.change === 'grant' ? 'already has' : 'does not have'} ${role}; nothing changed.`];
  const lines = [
    `${options.change === 'grant' ? 'Granted' : 'Revoked'} ${role} ${options.change === 'grant' ? 'to' : 'from'} ${user.email} (user ${user._id}); application roles now: ${user.appRoles.join(', ')}.`,
    'Tokens issued to this account before the change stop working; the person signs in again.',
  ];
  const bound = `${PRINCIPAL_CACHE_TTL_MS / 1000} s`;
  if (warnings.length > 0)
    lines.push(`Warning: running replicas could not be told (${warnings.join('; ')}); they notice within ${bound}.`);
  else if (options.store.redisUrl)
    lines.push('Running replicas were told through Redis to drop their cached copy of the account.');
  else if (options.store.databaseUrl) lines.push(`Without REDIS_URL a running backend notices within ${bound}.`);
  return lines;
}

function describeFailure(error: unknown, email: string): string {
  if (error instanceof RoleCommandError) return error.message;
  if (error instanceof FrameworkError && error.code === 'NOT_FOUND')
    return `no account has the email ${email}; the person signs up first.`;
  if (error instanceof FrameworkError && error.code === 'CONFLICT')
    return `${email} has no other application role, and an account keeps at least one.`;
  // Opening the database (a lock held by a running backend, a refused connection) or a migration: its first line.
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** An error as one line of text: its message, or the value itself. */
function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  return error instanceof Error ? error.message : JSON.stringify(error);
}

/** A logger that keeps warnings (a failed announcement) for the command's report and drops the rest. */
function warningCollector(warnings: string[]): Logger {
  const ignore = () => undefined;
  const collector: Logger = {
    debug: ignore,
    info: ignore,
    warn: (message, fields) => {
      const error = fields?.error;
      warnings.push(error === undefined ? message : `${message}: ${describeError(error)}`);
    },
    error: (message) => void warnings.push(message),
    child: () => collector,
  };
  return collector;
}
