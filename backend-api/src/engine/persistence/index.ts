/**
 * Persistence: the SQL database (embedded PGlite or PostgreSQL), schema migrations and the resource
 * store that keeps every resource's records with tenancy enforced in each statement.
 */
export type {
  RecordConstraint,
  RecordCreator,
  ResourceStore,
  ResourceStoreDefinition,
  StoredRecord,
  StoreFilterField,
  StoreFilters,
  StorePage,
  StoreWriteOutcome,
  TenantScope,
} from './resource-store.js';
export type {
  SqlDatabase,
  SqlDatabaseInfo,
  SqlExecutor,
  SqlMigration,
  SqlQueryOptions,
  SqlQueryResult,
} from './sql-database.js';
export { createPgliteDatabase, type PgliteDatabaseOptions } from './pglite-database.js';
export { acquireDataDirectoryLock, DATA_DIRECTORY_LOCK_FILE, type DataDirectoryLock } from './data-directory-lock.js';
export { DataDirectoryLockedError, type DataDirectoryLockRefusal } from './data-directory-lock.errors.js';
export type { DataDirectoryLockRecord } from './data-directory-lock.schema.js';
export { createPostgresDatabase, type PostgresDatabaseOptions } from './postgres-database.js';
export { openSqlDatabase, redactDatabaseUrl, type OpenSqlDatabaseOptions } from './open-sql-database.js';
export { migrationChecksum, MIGRATIONS_TABLE, runMigrations, type MigrationRunResult } from './sql-migrations.js';
export { ADVISORY_LOCK_PURPOSES, lockForTransaction, type AdvisoryLockPurpose } from './sql-advisory-locks.js';
export { SqlResourceStore, type SqlResourceStoreOptions } from './sql-resource-store.js';
export { MAX_PAGE_LIMIT, MAX_RECORD_ID_LENGTH, MAX_SEARCH_TEXT_LENGTH } from './resource-store-inputs.js';
export { invalidCursorError, MAX_SEARCH_OFFSET } from './resource-cursor.js';
export { RESOURCE_TABLES_REGISTRY } from './resource-schema-sync.js';
export { quoteIdentifier, resourceTableName, resourceTableNames } from './resource-table-schema.js';
export { ForwardingResourceStore } from './forwarding-resource-store.js';
export { createFileExclusively } from './exclusive-file.js';
export { type ResourceRow, tenantCondition, toStoredRecord } from './resource-statements.js';
