import type { SqlMigration } from '../persistence/index.js';

/**
 * File records: one row per uploaded file, owned by a tenant (organization, user or the application) and bound
 * to the resource type and `z_file` field it was uploaded for. The bytes live in the file storage under
 * `storage_key`; `state` says whether they are there (`stored`) or the write failed after the grant was used.
 */
export const FILES_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0401_files',
    sql: `
CREATE TABLE wildo_files (
  id text PRIMARY KEY,
  tenant_kind text NOT NULL,
  tenant_id text NOT NULL,
  resource_type text NOT NULL,
  field_name text NOT NULL,
  name text NOT NULL,
  media_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  state text NOT NULL,
  storage_key text NOT NULL,
  uploaded_by_type text NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX wildo_files_by_owner ON wildo_files (tenant_kind, tenant_id, resource_type, field_name);
`,
  },
];
