import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from './coordination.contract.js';
import { createCoordination } from './create-coordination.js';
import { InProcessCoordination } from './in-process-coordination.js';
import { RedisCoordination } from './redis-coordination.js';
import { redactRedisUrl } from './redis-connection.js';

describe('createCoordination', () => {
  it('chooses in-process without a Redis URL and says so', async () => {
    const logger = createRecordingLogger();
    const coordination = createCoordination({ logger });
    expect(coordination).toBeInstanceOf(InProcessCoordination);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'info', fields: expect.objectContaining({ kind: 'in-process' }) }),
    );
    await coordination.close();
  });

  it('treats an empty Redis URL as absent', async () => {
    const coordination = createCoordination({ redisUrl: '', logger: createRecordingLogger() });
    expect(coordination.kind).toBe('in-process');
    await coordination.close();
  });

  it('chooses Redis with a URL and logs it without credentials', async () => {
    const logger = createRecordingLogger();
    const coordination = createCoordination({ redisUrl: 'redis://admin:s3cret@127.0.0.1:1/2', logger });
    expect(coordination).toBeInstanceOf(RedisCoordination);
    await coordination.close();
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ fields: { kind: 'redis', redis: 'redis://127.0.0.1:1/2' } }),
    );
    expect(JSON.stringify(logger.lines)).not.toContain('s3cret');
  });
});

describe('redactRedisUrl', () => {
  it('drops user, password and query', () => {
    expect(redactRedisUrl('rediss://u:p@cache.internal:6380/0?tls=1')).toBe('rediss://cache.internal:6380/0');
  });

  it('keeps a URL without credentials as it is', () => {
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('never echoes an unparseable URL', () => {
    expect(redactRedisUrl('not a url with password')).toBe('[unparseable redis url]');
  });
});
