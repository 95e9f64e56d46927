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
  {
    // The bytes themselves when the storage is the database (WILDO_FILE_STORAGE=database): a header per key with the
    // size and SHA-256 checked on every read, and the bytes in 256 KiB chunks (stored uncompressed: files arrive
    // compressed already, or are small).
    id: '0402_file_chunks',
    sql: `
CREATE TABLE wildo_file_blobs (
  storage_key text PRIMARY KEY,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  chunk_count integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE TABLE wildo_file_chunks (
  storage_key text NOT NULL REFERENCES wildo_file_blobs (storage_key) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (storage_key, seq)
);
ALTER TABLE wildo_file_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
`,
  },
];
