import type { RestConnector, SqlConnector } from './connector.types.js';

/**
 * Declares a REST backend once, for every operation bound to it.
 *
 * @example
 * const agency = restConnector({ name: 'travel-agency', baseUrl: '${TRAVEL_AGENCY_API_URL}', timeoutMs: 5_000 });
 */
export function restConnector(options: Omit<RestConnector, 'kind'>): RestConnector {
  return { kind: 'rest', ...options };
}

/**
 * Declares a PostgreSQL backend read under row-level security; its connection string comes from the environment.
 *
 * @example
 * const warehouse = sqlConnector({ name: 'reporting', dsn: '${REPORTING_DSN}' });
 */
export function sqlConnector(options: Omit<SqlConnector, 'kind'>): SqlConnector {
  return { kind: 'sql', ...options };
}
