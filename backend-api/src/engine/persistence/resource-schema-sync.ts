import type { Logger } from '../logging/index.js';
import type { ResourceStoreDefinition } from './resource-store.js';
import { lockForTransaction } from './sql-advisory-locks.js';
import type { SqlExecutor } from './sql-database.js';
import {
  createTableSql,
  definitionSchemaHash,
  rebuildSearchSql,
  resourceTableNames,
  validateDefinitionFields,
  type ResourceTableNames,
} from './resource-table-schema.js';

/** The table recording which resource tables exist and the schema hash each was built for. */
export const RESOURCE_TABLES_REGISTRY = 'wildo_resource_tables';

const CREATE_REGISTRY = `CREATE TABLE IF NOT EXISTS ${RESOURCE_TABLES_REGISTRY} (
  resource_type text PRIMARY KEY,
  table_name text NOT NULL UNIQUE,
  definition_hash text NOT NULL,
  updated_at timestamptz NOT NULL
)`;

const UPSERT_REGISTRY = `INSERT INTO ${RESOURCE_TABLES_REGISTRY} (resource_type, table_name, definition_hash, updated_at)
VALUES ($1, $2, $3, now())
ON CONFLICT (resource_type) DO UPDATE SET table_name = EXCLUDED.table_name, definition_hash = EXCLUDED.definition_hash, updated_at = now()`;

interface TablePlan {
  resourceType: string;
  names: ResourceTableNames;
  hash: string;
  searchFields: readonly string[];
}

interface RegistryRow {
  resource_type: string;
  table_name: string;
  definition_hash: string;
}

function sharedTableError(first: string, second: string, table: string): Error {
  return new Error(`Resource types "${first}" and "${second}" would share the table "${table}". Rename one of them.`);
}

/** Validates every definition before any DDL; refuses two types mapping to one table. */
function planTables(definitions: readonly ResourceStoreDefinition[]): TablePlan[] {
  const byType = new Map<string, TablePlan>();
  const byTable = new Map<string, string>();
  for (const definition of definitions) {
    validateDefinitionFields(definition);
    const plan: TablePlan = {
      resourceType: definition.resourceType,
      names: resourceTableNames(definition.resourceType),
      hash: definitionSchemaHash(definition),
      searchFields: definition.searchFields,
    };
    const previous = byType.get(plan.resourceType);
    if (previous !== undefined && previous.hash !== plan.hash) {
      throw new Error(
        `Resource type "${plan.resourceType}" is defined twice with different search fields. Keep one definition.`,
      );
    }
    const owner = byTable.get(plan.names.table);
    if (owner !== undefined && owner !== plan.resourceType)
      throw sharedTableError(owner, plan.resourceType, plan.names.table);
    byType.set(plan.resourceType, plan);
    byTable.set(plan.names.table, plan.resourceType);
  }
  return [...byType.values()];
}

/** Creates the table (if missing) and rebuilds its search column, then records the hash. */
async function applyPlan(
  tx: SqlExecutor,
  plan: TablePlan,
  known: RegistryRow | undefined,
  logger: Logger,
): Promise<void> {
  await tx.exec(`${createTableSql(plan.names)}\n${rebuildSearchSql(plan.names, plan.searchFields)}`);
  await tx.query(UPSERT_REGISTRY, [plan.resourceType, plan.names.table, plan.hash]);
  const event = known === undefined ? 'resource table ready' : 'resource table search column rebuilt';
  logger.info(event, { resourceType: plan.resourceType, table: plan.names.table });
}

/**
 * Brings the tables of these definitions up to date inside `tx`, under an advisory lock so that
 * replicas starting together do the work once. A change of `searchFields` rebuilds the generated
 * search column; a change of filter fields needs no DDL (filters use the GIN index on `data`).
 */
export async function syncResourceTables(
  tx: SqlExecutor,
  definitions: readonly ResourceStoreDefinition[],
  logger: Logger,
): Promise<void> {
  const plans = planTables(definitions);
  if (plans.length === 0) return;
  await lockForTransaction(tx, 'resourceSchema');
  await tx.query(CREATE_REGISTRY);
  const { rows } = await tx.query<RegistryRow>(
    `SELECT resource_type, table_name, definition_hash FROM ${RESOURCE_TABLES_REGISTRY}`,
  );
  const byType = new Map(rows.map((row) => [row.resource_type, row]));
  const byTable = new Map(rows.map((row) => [row.table_name, row.resource_type]));
  for (const plan of plans) {
    const owner = byTable.get(plan.names.table);
    if (owner !== undefined && owner !== plan.resourceType)
      throw sharedTableError(owner, plan.resourceType, plan.names.table);
    const known = byType.get(plan.resourceType);
    if (known?.definition_hash === plan.hash) continue;
    await applyPlan(tx, plan, known, logger);
  }
}
