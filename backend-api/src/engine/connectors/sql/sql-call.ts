import pg from 'pg';
import { FrameworkError } from '../../errors/index.js';
import type { Logger } from '../../logging/index.js';
import { PROTECTION_COLUMNS, protectionLost, type ProtectedTable } from './sql-safety.js';
import type { SqlStatementPlan } from './sql-statement.js';

/** Default bound of one statement. */
export const DEFAULT_SQL_TIMEOUT_MS = 10_000;

const TYPE = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;

/** Counts and sums as numbers when exact (a report's `bookings` is a quantity), dates and times as ISO text. */
function parseExactNumber(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) && String(value) === text.replace(/\.0+$/, '').replace(/(\.\d*?)0+$/, '$1')
    ? value
    : text;
}

const connectorTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TYPE.int8:
      case TYPE.numeric:
        return parseExactNumber;
      case TYPE.date:
        return (text: string) => text;
      case TYPE.timestamp:
        return (text: string) => new Date(`${text.replace(' ', 'T')}Z`).toISOString();
      case TYPE.timestamptz:
        return (text: string) => new Date(text).toISOString();
      default:
        return pg.types.getTypeParser(oid, format ?? 'text');
    }
  },
} as pg.CustomTypesConfig;

/** Opens the pool of one SQL connector (values parsed for JSON results; no connection is made yet). */
export function openConnectorPool(
  connectionString: string,
  maxConnections: number,
  logger: Logger,
  name: string,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    application_name: `wildo-connector-${name}`,
    types: connectorTypes,
  });
  // The connection string is never logged: only the connector's name and the driver's error.
  pool.on('error', (error) =>
    logger.error('connector database connection failed', { connector: name, error: error.message }),
  );
  return pool;
}

/** The SQL that sets the identity settings and reads the tables' protection, in one round trip. */
export function identityStatement(plan: SqlStatementPlan): string {
  const settings = plan.identity.map((_, i) => `set_config($${i * 2 + 2}, $${i * 2 + 3}, true)`);
  return `SELECT ${[...settings, PROTECTION_COLUMNS].join(', ')}`;
}

/** What one SQL call needs besides its input. */
export interface SqlCall {
  pool: pg.Pool;
  plan: SqlStatementPlan;
  identitySql: string;
  tables: readonly ProtectedTable[];
  /** Values of the identity settings, in the plan's order (already checked non-empty). */
  claims: readonly string[];
  params: readonly unknown[];
  connector: string;
  logger: Logger;
}

const unavailable = (message: string, cause?: unknown) => new FrameworkError('SERVICE_UNAVAILABLE', message, { cause });

/** A driver failure as the caller sees it: what kind of failure, never the driver's words. */
function callerError(error: unknown): FrameworkError {
  if (error instanceof FrameworkError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === '57014') return unavailable('The backend did not answer in time.', error);
  if (typeof code === 'string' && code.startsWith('22'))
    return new FrameworkError('VALIDATION_FAILED', 'The backend refused a value of the input.', {
      reason: 'input_invalid',
      cause: error,
    });
  return unavailable('The backend could not answer.', error);
}

/**
 * Runs one SELECT: a READ ONLY transaction with a statement timeout, the caller's identity as transaction-scoped
 * settings (set with the protection check, in one round trip), then the statement with its parameters; always
 * rolled back. A table whose row security was turned off or whose policy was dropped since start refuses the call
 * and is reported. Driver messages and the connection string never reach the caller.
 */
export async function runSqlCall(call: SqlCall): Promise<unknown[]> {
  let client: pg.PoolClient;
  try {
    client = await call.pool.connect();
  } catch (error) {
    call.logger.error('connector database unreachable', {
      connector: call.connector,
      error: String((error as Error).message),
    });
    throw unavailable('The backend could not be reached.', error);
  }
  let broken: Error | undefined;
  try {
    const timeout = Math.max(1, Math.round(call.plan.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS));
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeout}`);
    const settings = call.plan.identity.flatMap(([name], i) => [name, call.claims[i]]);
    const check = await client.query<{ secured: number; policies: number }>(call.identitySql, [
      call.tables.map((table) => table.oid),
      ...settings,
    ]);
    const lost = protectionLost(call.tables, check.rows[0] ?? { secured: 0, policies: 0 });
    if (lost) {
      call.logger.error('connector refused a call: the data it reads is no longer protected', {
        connector: call.connector,
        tables: call.tables.map((table) => table.name),
        problem: lost,
      });
      throw unavailable(
        "The backend's data is not protected as it was when the backend started; the call was refused.",
      );
    }
    const result = await client.query({ text: call.plan.sql, values: [...call.params] });
    return result.rows;
  } catch (error) {
    const refused = callerError(error);
    if (!(error instanceof FrameworkError))
      call.logger.warn('connector statement failed', {
        connector: call.connector,
        code: (error as { code?: unknown }).code,
        error: (error as Error).message,
      });
    throw refused;
  } finally {
    try {
      await client.query('ROLLBACK');
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
    }
    client.release(broken);
  }
}
