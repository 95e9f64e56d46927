import { describe, expect, it } from 'vitest';
import { openSqlDatabase, redactDatabaseUrl } from './open-sql-database.js';
import { postgresTestUrl } from './postgres-test-schema.js';
import { createRecordingLogger } from './resource-store.contract-fixtures.js';
import { HARNESS_TIMEOUT_MS } from './sql-database.contract.js';

describe('redactDatabaseUrl', () => {
  it('hides the password and the query string, keeps host and database', () => {
    const redacted = redactDatabaseUrl('postgres://app:s3cret@db.internal:5432/wildo?password=other&sslmode=require');
    expect(redacted).toBe('postgres://app:redacted@db.internal:5432/wildo');
  });

  it('leaves a URL without a password readable', () => {
    expect(redactDatabaseUrl('postgres://postgres@127.0.0.1:5432/test')).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
  });

  it('does not echo a URL it cannot parse', () => {
    expect(redactDatabaseUrl('host=db password=s3cret')).not.toContain('s3cret');
  });
});

describe('openSqlDatabase', () => {
  it(
    'opens PGlite in memory without a URL, and warns that nothing persists',
    async () => {
      const logger = createRecordingLogger();
      const database = await openSqlDatabase({ logger });
      try {
        expect(database.info.dialect).toBe('pglite');
        expect(logger.lines.some((line) => line.level === 'warn' && /in memory/.test(line.message))).toBe(true);
      } finally {
        await database.close();
      }
    },
    HARNESS_TIMEOUT_MS,
  );

  const url = postgresTestUrl();
  it.skipIf(url === undefined)('opens PostgreSQL when a URL is given, logging it without the password', async () => {
    const logger = createRecordingLogger();
    // Trust authentication ignores the password, so a made-up one still connects.
    const withPassword = new URL(url ?? '');
    withPassword.password = 'hunter2';
    const database = await openSqlDatabase({ databaseUrl: withPassword.toString(), logger });
    try {
      expect(database.info.dialect).toBe('postgres');
      expect(logger.lines.some((line) => /PostgreSQL/.test(line.message))).toBe(true);
      expect(JSON.stringify(logger.lines)).not.toContain('hunter2');
    } finally {
      await database.close();
    }
  });
});
