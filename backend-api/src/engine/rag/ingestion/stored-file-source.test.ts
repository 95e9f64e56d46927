import { describe, expect, it } from 'vitest';
import type { TenantScope } from '../../persistence/resource-store.js';
import { storedFileSource, type StoredFileReader } from './stored-file-source.js';

describe('storedFileSource', () => {
  const asked: TenantScope[] = [];
  const records = new Map([
    ['stored', { mediaType: 'text/plain', state: 'stored' }],
    ['uploading', { mediaType: 'text/plain', state: 'uploading' }],
    ['failed', { mediaType: 'text/plain', state: 'failed' }],
  ]);
  const reader: StoredFileReader = {
    get: async (id, tenant) => {
      asked.push(tenant);
      return tenant.kind === 'organization' && tenant.organizationId === 'org-1' ? (records.get(id) ?? null) : null;
    },
    readBytes: async () => new TextEncoder().encode('bytes'),
  };
  const source = storedFileSource(reader);
  const org = { organizationId: 'org-1', userId: null, createdByUserId: 'u1' };

  it('opens a stored file of the record’s own tenant, and nothing of another', async () => {
    const file = await source.open(org, 'stored');
    expect(file).toMatchObject({ fileId: 'stored', mediaType: 'text/plain' });
    expect(new TextDecoder().decode(await file?.read())).toBe('bytes');
    expect(await source.open({ ...org, organizationId: 'org-2' }, 'stored')).toBeNull();
    expect(asked.at(-1)).toEqual({ kind: 'organization', organizationId: 'org-2' });
    await source.open({ organizationId: null, userId: 'u9', createdByUserId: 'u9' }, 'stored');
    expect(asked.at(-1)).toEqual({ kind: 'user', userId: 'u9' });
  });

  it('retries a file still uploading and gives up on a failed one', async () => {
    await expect(source.open(org, 'uploading')).rejects.toThrow('not stored yet');
    expect(await source.open(org, 'failed')).toBeNull();
  });
});
