import type pg from 'pg';
import { FrameworkError } from '../errors/index.js';
import { delegatedTokenOf } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import {
  effectivePort,
  isIpLiteral,
  isLoopbackAddress,
  OutboundTargetGuard,
  unbracketHost,
  type DevelopmentTarget,
  type OutboundFetcher,
  type OutboundTargetGuardOptions,
} from '../net/index.js';
import type { ExecutionContext } from '../resources/index.js';
import type { ConnectorInvoker } from './bind-resource.js';
import type { CompiledBinding } from './compile-binding.js';
import { ConnectorSetupError } from './connectors.errors.js';
import type { IdentityClaim } from './connector.types.js';
import { identityClaimOf } from './identity-claims.js';
import { failureFromBackendAnswer } from '../governance/index.js';
import { callRest, DEFAULT_REST_TIMEOUT_MS, type BackendFailure } from './rest/rest-call.js';
import { openConnectorPool, runSqlCall } from './sql/sql-call.js';
import { checkSqlSafety, type ProtectedTable } from './sql/sql-safety.js';

/** Options of the connector runtime. */
export interface ConnectorRuntimeOptions {
  bindings: readonly CompiledBinding[];
  /** Where `${ENV}` placeholders are read (read once, at start). */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  production: boolean;
  /** The outbound guard of REST connectors; default: production rules, or in development the connectors' own loopback base URLs over http. */
  outbound?: OutboundTargetGuardOptions;
}

/** The state of one SQL binding: its pool, and what the database said about it. */
interface SqlState {
  pool?: pg.Pool;
  tables?: readonly ProtectedTable[];
  checking?: Promise<readonly ProtectedTable[]>;
}

const notConfigured = () =>
  new FrameworkError('SERVICE_UNAVAILABLE', "This operation's backend is not configured on this server.");

/** Loopback base URLs of the REST bindings: what a development guard may reach over http. */
function developmentTargets(urls: readonly URL[]): DevelopmentTarget[] {
  return urls
    .filter((url) => {
      const host = unbracketHost(url.hostname);
      return host === 'localhost' || (isIpLiteral(host) && isLoopbackAddress(host));
    })
    .map((url) => ({ host: url.hostname, port: effectivePort(url) }));
}

/**
 * Runs every connector-backed operation: REST calls through the outbound-target guard, SELECT statements on their
 * own pools under row-level security. Start checks each SQL binding's connection (a superuser, BYPASSRLS or owning
 * role refuses the start, with the fix) and reports unset environment variables; `invoke` is what bound operations'
 * handlers call, after the dispatch path admitted the call.
 */
export class ConnectorRuntime implements ConnectorInvoker {
  private readonly bindings = new Map<string, CompiledBinding>();
  private readonly env = new Map<string, string>();
  private readonly sql = new Map<string, SqlState>();
  private readonly pools = new Map<string, pg.Pool>();
  private guard: OutboundTargetGuard | undefined;
  private readonly fetcher: OutboundFetcher;

  private constructor(private readonly options: ConnectorRuntimeOptions) {
    for (const binding of options.bindings) this.bindings.set(binding.key, binding);
    for (const [name, value] of Object.entries(options.env))
      if (value !== undefined && value !== '') this.env.set(name, value);
    const rest = options.bindings.flatMap((b) => (b.kind === 'rest' ? [b] : []));
    const baseUrls = rest.flatMap((binding) => binding.rest.baseUrl((name) => this.env.get(name)) ?? []);
    const longest = Math.max(DEFAULT_REST_TIMEOUT_MS, ...rest.map((b) => b.rest.timeoutMs ?? 0));
    this.guard =
      rest.length === 0
        ? undefined
        : new OutboundTargetGuard(
            options.outbound ??
              (options.production
                ? { mode: 'production', totalTimeoutMs: longest }
                : {
                    mode: 'development',
                    developmentTargets: developmentTargets(baseUrls),
                    allowHttpForDevelopmentTargets: true,
                    totalTimeoutMs: longest,
                  }),
          );
    this.fetcher = this.guard ?? { fetch: () => Promise.reject(notConfigured()) };
  }

  /**
   * Builds the runtime and checks what can be checked at start: environment variables (a missing one is a warning;
   * its operations answer 503), and every SQL binding's connection and tables.
   *
   * @throws {ConnectorSetupError} when a SQL binding's connection would not be filtered by row-level security.
   */
  static async start(options: ConnectorRuntimeOptions): Promise<ConnectorRuntime> {
    const runtime = new ConnectorRuntime(options);
    try {
      await runtime.checkAtStart();
    } catch (error) {
      await runtime.close();
      throw error;
    }
    return runtime;
  }

  private async checkAtStart(): Promise<void> {
    const missing = new Map<string, string[]>();
    for (const binding of this.bindings.values()) {
      const names = binding.kind === 'rest' ? binding.rest.envNames : binding.dsnEnv ? [binding.dsnEnv] : [];
      for (const name of names) if (!this.env.has(name)) missing.set(name, [...(missing.get(name) ?? []), binding.key]);
    }
    for (const binding of this.bindings.values())
      if (
        binding.kind === 'rest' &&
        binding.rest.envNames.every((name) => this.env.has(name)) &&
        !binding.rest.baseUrl((name) => this.env.get(name))
      )
        this.options.logger.warn(
          'connector base URL is not an absolute http(s) URL without credentials: its operations answer 503',
          {
            operation: binding.key,
          },
        );
    for (const [variable, operations] of missing)
      this.options.logger.warn('connector environment variable is not set: its operations answer 503 until it is', {
        variable,
        operations,
      });
    const problems: string[] = [];
    for (const binding of this.bindings.values()) {
      if (binding.kind !== 'sql') continue;
      const state = this.sqlState(binding);
      if (!state.pool) continue;
      try {
        state.tables = await this.checkSql(binding, state.pool);
      } catch (error) {
        if (error instanceof ConnectorSetupError) problems.push(...error.problems);
        else
          this.options.logger.warn('connector database not reachable at start; it is checked at its first call', {
            operation: binding.key,
            error: (error as Error).message,
          });
      }
    }
    if (problems.length > 0) throw new ConnectorSetupError(problems);
  }

  private sqlState(binding: Extract<CompiledBinding, { kind: 'sql' }>): SqlState {
    let state = this.sql.get(binding.key);
    if (state) return state;
    const dsn = binding.dsnEnv ? this.env.get(binding.dsnEnv) : undefined;
    let pool: pg.Pool | undefined;
    if (dsn) {
      const key = `${binding.connector.name}\n${dsn}`;
      pool = this.pools.get(key);
      if (!pool) {
        pool = openConnectorPool(
          dsn,
          binding.connector.maxConnections ?? 4,
          this.options.logger,
          binding.connector.name,
        );
        this.pools.set(key, pool);
      }
    }
    state = pool ? { pool } : {};
    this.sql.set(binding.key, state);
    return state;
  }

  private async checkSql(binding: Extract<CompiledBinding, { kind: 'sql' }>, pool: pg.Pool): Promise<ProtectedTable[]> {
    const client = await pool.connect();
    try {
      const report = await checkSqlSafety(client, binding.sql);
      if (report.problems.length > 0)
        throw new ConnectorSetupError(report.problems.map((problem) => `${binding.label}: ${problem}`));
      return report.tables;
    } finally {
      client.release();
    }
  }

  /** Whether an operation is answered by a connector (its valid calls reach an external backend). */
  binds(resourceType: string, operation: string): boolean {
    return this.bindings.has(`${resourceType}.${operation}`);
  }

  /** Runs one bound operation for an admitted call; the result goes on to projection. */
  async invoke(resourceType: string, operation: string, input: unknown, context: ExecutionContext): Promise<unknown> {
    const binding = this.bindings.get(`${resourceType}.${operation}`);
    if (!binding) throw notConfigured();
    const answer =
      binding.kind === 'rest'
        ? await this.invokeRest(binding, input, context)
        : await this.invokeSql(binding, input, context);
    return binding.map(answer);
  }

  /**
   * The backend's own answer to one bound operation, before and after its mapping, with nothing projected: what
   * `wildo verify` records (as paths and types) and compares. The call is made exactly as {@link invoke} makes it.
   */
  async answer(
    resourceType: string,
    operation: string,
    input: unknown,
    context: ExecutionContext,
  ): Promise<{ answer: unknown; mapped: unknown }> {
    const binding = this.bindings.get(`${resourceType}.${operation}`);
    if (!binding) throw notConfigured();
    const answer =
      binding.kind === 'rest'
        ? await this.invokeRest(binding, input, context)
        : await this.invokeSql(binding, input, context);
    return { answer, mapped: binding.map(answer) };
  }

  /** The tables row-level security guards for a SQL binding, as checked at start (undefined: not checked). */
  protectedTables(resourceType: string, operation: string): readonly { name: string; policies: number }[] | undefined {
    const binding = this.bindings.get(`${resourceType}.${operation}`);
    return binding?.kind === 'sql' ? this.sql.get(binding.key)?.tables : undefined;
  }

  private invokeRest(
    binding: Extract<CompiledBinding, { kind: 'rest' }>,
    input: unknown,
    context: ExecutionContext,
  ): Promise<unknown> {
    const scope = { env: (name: string) => this.env.get(name), callerToken: () => delegatedTokenOf(context.principal) };
    // A refusal the backend names in its body becomes the operation's declared failure; anything else its status only.
    const failures = (answer: BackendFailure) => failureFromBackendAnswer(binding.operation.failures, answer);
    return callRest(binding.rest, input, scope, this.fetcher, failures);
  }

  private async invokeSql(
    binding: Extract<CompiledBinding, { kind: 'sql' }>,
    input: unknown,
    context: ExecutionContext,
  ): Promise<unknown> {
    const claims = binding.sql.identity.map(([, claim]) => requireClaim(context, claim));
    const state = this.sqlState(binding);
    if (!state.pool) throw notConfigured();
    const tables = state.tables ?? (await this.lateCheck(binding, state, state.pool));
    const params = binding.sql.params.map((field) => {
      const value = (input as Record<string, unknown> | undefined)?.[field];
      return value !== null && typeof value === 'object' ? JSON.stringify(value) : (value ?? null);
    });
    return runSqlCall({
      pool: state.pool,
      plan: binding.sql,
      identitySql: binding.identitySql,
      tables,
      claims,
      params,
      connector: binding.connector.name,
      logger: this.options.logger,
    });
  }

  /** The start-up check of a database that was unreachable then: once, at the first call; a failure refuses the call. */
  private lateCheck(
    binding: Extract<CompiledBinding, { kind: 'sql' }>,
    state: SqlState,
    pool: pg.Pool,
  ): Promise<readonly ProtectedTable[]> {
    state.checking ??= this.checkSql(binding, pool).then(
      (tables) => (state.tables = tables),
      (error: unknown) => {
        state.checking = undefined;
        if (error instanceof ConnectorSetupError)
          this.options.logger.error(
            'connector refused: its database connection is not filtered by row-level security',
            {
              operation: binding.key,
              problems: error.problems,
            },
          );
        throw new FrameworkError('SERVICE_UNAVAILABLE', 'The backend could not be reached.', { cause: error });
      },
    );
    return state.checking;
  }

  /** Closes the pools and the guard's connections. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all([...pools.map((pool) => pool.end()), this.guard?.close()]);
    this.guard = undefined;
  }
}

/** A claim of the caller's identity, refused when it is empty (a policy would compare against nothing). */
function requireClaim(context: ExecutionContext, claim: IdentityClaim): string {
  const value = identityClaimOf(context, claim);
  if (value) return value;
  throw new FrameworkError('FORBIDDEN', `This operation needs a caller with a verified ${claim}.`, {
    reason: 'principal_not_allowed',
  });
}
