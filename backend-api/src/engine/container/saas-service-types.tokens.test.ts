import { CimdTrustPolicy } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { createTestBackend, useTestDatabase } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from './saas-service-types.tokens.js';

describe('SAAS_SERVICE_TYPES', () => {
  const db = useTestDatabase();

  it('names only what a started backend binds (with client metadata documents enabled, which bind CimdResolver)', async () => {
    await using t = await createTestBackend(db(), {
      oauth: { cimd: { policy: CimdTrustPolicy.ALLOWLIST, allowedClients: ['https://client.example/metadata.json'] } },
    });
    const { container } = t.backend;
    const unbound = Object.entries(SAAS_SERVICE_TYPES)
      .filter(([, token]) => !container.isBound(token))
      .map(([name]) => name);
    expect(unbound).toEqual([]);
  });
});
