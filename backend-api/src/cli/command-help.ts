import { CORE_APP_ROLES, type CoreAppRole } from '@wildo/shared-lib';

// What the command tree shows before any command runs (names, defaults, help text). Kept apart from the
// commands themselves, which the CLI imports only when one of them runs: `config sync` need not load the engine.

/** Where `wildo exposure` finds the application, relative to the project root. */
export const APPLICATION_MODULE_FILE = 'backend-api/src/modules/index.ts';
/** The export preferred in that file. */
export const APPLICATION_EXPORT = 'referenceApplication';

/** The part of `wildo exposure --help` that documents the convention, the statuses and the exit codes. */
export const EXPOSURE_HELP = [
  '',
  'Finding the application:',
  `  <root>/${APPLICATION_MODULE_FILE} is loaded (TypeScript through tsx); <root> is the nearest`,
  '  directory upward holding wildo.saas.config.ts, or --root. Its export',
  `  "${APPLICATION_EXPORT}" is reported, else the first export (alphabetically) shaped`,
  '  like a BackendApplicationDefinition ({ name, modules: [...] }, as',
  '  defineBackendApplication returns). --app and --export override the file and the',
  '  export. The engine modules (credentials, OAuth) are added as the backend adds them.',
  '',
  'Statuses:',
  '  exposed      listed and callable on the catalogues named',
  '  unlisted     experimental: callable by name, not listed',
  '  blocked      retired: kept only so a call by name is refused',
  '  not exposed  with the reason (mcp.exposed not set, not the default variant,',
  '               internal, unimplemented, malformed name, argument clash, schema',
  '               without a JSON Schema form, name taken, unknown instance)',
  '',
  'Agent tools: for each agent, the tools its model is offered under the names it',
  '  sees (a functionRef with every character outside [A-Za-z0-9_-] made "_"), the',
  "  resource operation each dispatches, whether a call waits for a person's",
  '  approval, and what the model sends.',
  '',
  'Connector-backed capabilities: each one bound to a REST API or a SQL database,',
  '  what it calls, the answer paths its binding reads, and the paths a recorded',
  '  answer (wildo verify --record; --contracts) held that nobody declared: observed',
  '  but withheld from every caller.',
  '',
  'Examples:',
  '  wildo exposure',
  '  wildo exposure --json > exposure.json',
  '  wildo exposure --app src/app.ts --contracts src/wildo.contract.json',
  '',
  'Exit codes: 0 the report was printed; 1 the application could not be found,',
  'loaded or validated.',
].join('\n');

/** The part of `wildo check --help` that says what is checked and what is not. */
export const CHECK_HELP = [
  '',
  'What is checked, as at start-up and with the same lines: the environment',
  '  (backend-api/src/environment.schema.ts), wildo.saas.config.ts against its',
  '  generation (.wildo-saas/generated must be in sync), and every declaration of',
  '  the application and of the engine modules: resources, service code, function',
  '  tools (their resources and operations), agents (providers, models, tools) and',
  '  actor systems. No database is opened and no server is started.',
  '',
  'The application is found as by `wildo exposure` (--app, --export).',
  '',
  'Examples:',
  '  wildo check',
  '  wildo check --app src/app.ts --export application',
  '',
  'Exit codes: 0 everything is valid; 1 a refusal (printed as start-up prints it).',
].join('\n');

/** The backend entry `wildo dev` runs, relative to the project root. */
export const BACKEND_ENTRY_FILE = 'backend-api/src/main.ts';

/** The part of `wildo dev --help` that documents the stub models. */
export const DEV_HELP = [
  '',
  'The backend runs under `tsx watch`: a change to any file it imports restarts it.',
  'Stop with Ctrl-C.',
  '',
  'With --stub-models, local Anthropic and OpenAI stand-ins start in this process',
  'and the backend is pointed at them (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, stub',
  'keys): no provider account is used. Their replies, unless --stub-script says:',
  '  call <tool> {json}   the model calls that tool (the name the model sees, e.g.',
  '                       resource_todos_update, or its functionRef) with the JSON',
  '  a tool result        the model says what the tool returned',
  '  anything else        the model echoes the message',
  '--stub-script <file> exports a default function (request, vendor) returning a',
  'reply (textReply, toolCallsReply from @wildo/backend-api/testing) or undefined to',
  'fall back to the replies above.',
  '',
  'Examples:',
  '  wildo dev',
  '  wildo dev --stub-models --stub-script stubs.ts',
  '',
  "Exit codes: the backend's own when it stops; 1 when it could not be started.",
].join('\n');

/** The application roles an operator can grant or revoke. */
export const APPLICATION_ROLES: readonly CoreAppRole[] = Object.values(CORE_APP_ROLES);

/** The part of `wildo users <change>-role --help` that says where the command looks and what it changes. */
export const USERS_ROLE_HELP = [
  '',
  'Where the accounts are: the database the backend uses, from the same environment',
  '  (DATABASE_URL, else the embedded database under WILDO_DATA_DIR, default',
  '  <root>/.wildo-saas/data). With REDIS_URL set, running replicas are told to drop',
  '  their cached copy of the account at once.',
  '',
  "A change bumps the account's authorization version: its outstanding tokens stop",
  'working and the person signs in again to use the new role.',
  '',
  'Examples:',
  '  wildo users grant-role --email ada@example.com --role APP_ADMIN',
  '  wildo users revoke-role --email ada@example.com --role APP_ADMIN',
  '',
  'Exit codes: 0 the role was changed (or already as asked); 1 unknown role, unknown',
  'account, or the database could not be opened.',
].join('\n');

/** A grant or a revoke of one application role. */
export type RoleChangeKind = 'grant' | 'revoke';

/** The part of `wildo config sync --help` with examples and exit codes. */
export const CONFIG_SYNC_HELP = [
  '',
  'Examples:',
  '  wildo config sync',
  '  wildo config sync --check        # in CI: fails when .wildo-saas/generated is stale',
  '',
  'Exit codes: 0 generated (or, with --check, in sync); 1 invalid configuration, or',
  'stale generated files with --check.',
].join('\n');

/** The part of `wildo new --help` with examples and exit codes. */
export const NEW_HELP = [
  '',
  'Examples:',
  '  wildo new my-app',
  '  wildo new my-app --module tickets --package-manager pnpm',
  '',
  'Exit codes: 0 written; 1 the directory is not empty or the options are invalid.',
].join('\n');
