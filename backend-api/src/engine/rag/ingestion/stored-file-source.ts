import type { TenantScope } from '../../persistence/index.js';
import type { TenantStamps } from './chunk-store.js';
import type { RagFileSource } from './rag-ingestion.service.js';

/** What ingestion reads of file records: the files capability's `FileRecordsService` has this shape. */
export interface StoredFileReader {
  /** The tenant's file record, or null (also for another tenant's file). */
  get(id: string, tenant: TenantScope): Promise<{ mediaType: string; state: string } | null>;
  /** The bytes of the tenant's stored file. */
  readBytes(id: string, tenant: TenantScope): Promise<Uint8Array>;
}

/** The record's tenant as the file records scope it. */
export function tenantOfStamps(owner: TenantStamps): TenantScope {
  if (owner.organizationId !== null) return { kind: 'organization', organizationId: owner.organizationId };
  if (owner.userId !== null) return { kind: 'user', userId: owner.userId };
  return { kind: 'application' };
}

/**
 * A {@link RagFileSource} over file records: only a file of the record's own tenant is read, and only once it is
 * `stored`. A file still uploading is a retryable failure (extraction tries again later); an absent, foreign or
 * failed file is none at all.
 *
 * @example
 * createRagIngestion({ registry, logger, clock, files: storedFileSource(fileRecords) });
 */
export function storedFileSource(files: StoredFileReader): RagFileSource {
  return {
    async open(owner, fileId) {
      const tenant = tenantOfStamps(owner);
      const record = await files.get(fileId, tenant);
      if (!record || record.state === 'failed') return null;
      if (record.state !== 'stored') throw new Error(`File ${fileId} is not stored yet (${record.state}).`);
      return { fileId, mediaType: record.mediaType, read: () => files.readBytes(fileId, tenant) };
    },
  };
}
