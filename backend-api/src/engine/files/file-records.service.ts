import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../container/index.js';
import type { SqlDatabase, SqlExecutor, TenantScope } from '../persistence/index.js';
import { ByteTally, FileIntegrityError, type FileStorage } from './file-storage.js';

/** Where a file is in its life: its row exists while `uploading`; `stored` once every byte is in the storage. */
export type FileState = 'uploading' | 'stored' | 'failed';

/** Who uploaded a file (the minter of the grant it came through). */
export interface FileUploader {
  entityType: 'user' | 'machine';
  id: string;
}

/** A file's record: what it is, whose it is and which field it was uploaded for. */
export interface FileRecord {
  id: string;
  tenant: TenantScope;
  resourceType: string;
  fieldName: string;
  name: string;
  mediaType: string;
  sizeBytes: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  state: FileState;
  uploadedBy: FileUploader;
  createdAt: Date;
}

/** What {@link FileRecordsService.storeUpload} needs. */
export interface FileUpload {
  tenant: TenantScope;
  resourceType: string;
  fieldName: string;
  name: string;
  mediaType: string;
  bytes: Uint8Array;
  uploadedBy: FileUploader;
}

interface FileRow {
  id: string;
  tenant_kind: TenantScope['kind'];
  tenant_id: string;
  resource_type: string;
  field_name: string;
  name: string;
  media_type: string;
  size_bytes: string;
  sha256: string;
  state: FileState;
  storage_key: string;
  uploaded_by_type: FileUploader['entityType'];
  uploaded_by: string;
  created_at: Date;
}

/** The tenant as two columns (`application` has no id). */
export function tenantColumns(tenant: TenantScope): [TenantScope['kind'], string] {
  if (tenant.kind === 'organization') return ['organization', tenant.organizationId];
  if (tenant.kind === 'user') return ['user', tenant.userId];
  return ['application', ''];
}

function tenantOf(kind: TenantScope['kind'], id: string): TenantScope {
  if (kind === 'organization') return { kind, organizationId: id };
  if (kind === 'user') return { kind, userId: id };
  return { kind: 'application' };
}

function recordOf(row: FileRow): FileRecord {
  return {
    id: row.id,
    tenant: tenantOf(row.tenant_kind, row.tenant_id),
    resourceType: row.resource_type,
    fieldName: row.field_name,
    name: row.name,
    mediaType: row.media_type,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    state: row.state,
    uploadedBy: { entityType: row.uploaded_by_type, id: row.uploaded_by },
    createdAt: row.created_at,
  };
}

const COLUMNS =
  'id, tenant_kind, tenant_id, resource_type, field_name, name, media_type, size_bytes, sha256, state, storage_key, uploaded_by_type, uploaded_by, created_at';

/**
 * File records and their bytes: a row per file (size, media type, SHA-256, state), bytes in the {@link FileStorage}.
 * Every read names the tenant, so a file of another tenant is never found.
 *
 * @example
 * const file = await files.storeUpload({ tenant, resourceType: 'knowledge-documents', fieldName: 'document', name, mediaType, bytes, uploadedBy });
 * const bytes = await files.readBytes(file.id, tenant);
 */
export class FileRecordsService {
  constructor(
    private readonly database: SqlDatabase,
    private readonly storage: FileStorage,
    private readonly clock: Clock,
  ) {}

  /** Records the file (`uploading`), writes its bytes, then marks it `stored`; a failed write leaves it `failed`. */
  async storeUpload(upload: FileUpload): Promise<FileRecord> {
    const id = `file_${randomBytes(16).toString('hex')}`;
    const storageKey = `${id.slice(5, 7)}/${id}`;
    const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
    const [tenantKind, tenantId] = tenantColumns(upload.tenant);
    const now = this.clock.now();
    const { rows } = await this.database.query<FileRow>(
      `INSERT INTO wildo_files (id, tenant_kind, tenant_id, resource_type, field_name, name, media_type, size_bytes, sha256,
         state, storage_key, uploaded_by_type, uploaded_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'uploading', $10, $11, $12, $13, $13)
       RETURNING ${COLUMNS}`,
      [
        id,
        tenantKind,
        tenantId,
        upload.resourceType,
        upload.fieldName,
        upload.name,
        upload.mediaType,
        upload.bytes.byteLength,
        sha256,
        storageKey,
        upload.uploadedBy.entityType,
        upload.uploadedBy.id,
        now,
      ],
    );
    try {
      await this.storage.write(storageKey, upload.bytes, { sizeBytes: upload.bytes.byteLength, sha256 });
    } catch (error) {
      await this.setState(id, 'failed');
      throw error;
    }
    await this.setState(id, 'stored');
    const row = rows[0] as FileRow;
    return { ...recordOf(row), state: 'stored' };
  }

  /** The tenant's file, or null (also for another tenant's). */
  async get(id: string, tenant: TenantScope): Promise<FileRecord | null> {
    const [kind, tenantId] = tenantColumns(tenant);
    const { rows } = await this.database.query<FileRow>(
      `SELECT ${COLUMNS} FROM wildo_files WHERE id = $1 AND tenant_kind = $2 AND tenant_id = $3`,
      [id, kind, tenantId],
    );
    const row = rows[0];
    return row ? recordOf(row) : null;
  }

  /** The bytes of the tenant's stored file; rejects when it is not one, or when they are not those recorded. */
  async readBytes(id: string, tenant: TenantScope): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.openBytes(id, tenant)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /**
   * The bytes of the tenant's stored file chunk by chunk, checked against the size and SHA-256 recorded at upload
   * (the iteration rejects before its last chunk when they differ, whichever storage holds them).
   */
  async *openBytes(id: string, tenant: TenantScope): AsyncIterable<Buffer> {
    const [kind, tenantId] = tenantColumns(tenant);
    const { rows } = await this.database.query<{ storage_key: string; size_bytes: string; sha256: string }>(
      `SELECT storage_key, size_bytes, sha256 FROM wildo_files
       WHERE id = $1 AND tenant_kind = $2 AND tenant_id = $3 AND state = 'stored'`,
      [id, kind, tenantId],
    );
    const row = rows[0];
    if (!row) throw new Error('No stored file with this id for this tenant.');
    const expected = { sizeBytes: Number(row.size_bytes), sha256: row.sha256 };
    const tally = new ByteTally();
    let previous: Buffer | undefined;
    // One chunk behind, so the check runs before the consumer sees the end of the file.
    for await (const chunk of this.storage.read(row.storage_key)) {
      tally.add(chunk);
      if (previous) yield previous;
      previous = chunk;
    }
    const actual = tally.finish();
    if (actual.sizeBytes !== expected.sizeBytes || actual.sha256 !== expected.sha256)
      throw new FileIntegrityError(row.storage_key, expected, actual);
    if (previous) yield previous;
  }

  /**
   * Of `ids`, those naming a stored file of `tenant` uploaded for this resource type and field. `executor` is the
   * open transaction of a write that asks from inside one (a second connection could wait on it).
   */
  async usableIds(
    ids: readonly string[],
    tenant: TenantScope,
    resourceType: string,
    fieldName: string,
    executor: SqlExecutor = this.database,
  ): Promise<Set<string>> {
    const [kind, tenantId] = tenantColumns(tenant);
    const { rows } = await executor.query<{ id: string }>(
      `SELECT id FROM wildo_files
       WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND tenant_kind = $2 AND tenant_id = $3 AND resource_type = $4 AND field_name = $5
         AND state = 'stored'`,
      [JSON.stringify(ids), kind, tenantId, resourceType, fieldName],
      { prepare: true },
    );
    return new Set(rows.map((row) => row.id));
  }

  private async setState(id: string, state: FileState): Promise<void> {
    await this.database.query('UPDATE wildo_files SET state = $2, updated_at = $3 WHERE id = $1', [
      id,
      state,
      this.clock.now(),
    ]);
  }
}
