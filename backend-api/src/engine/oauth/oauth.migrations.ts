import type { SqlMigration } from '../persistence/index.js';

/**
 * Authorization codes and pending consent requests (short-lived, single-use, stored as hashes); revocations
 * of clients and consents (kept as long as a token issued before them could live).
 */
export const OAUTH_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0101_oauth_codes_and_consent_requests',
    sql: `
CREATE TABLE wildo_oauth_authorization_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL,
  user_id text NOT NULL REFERENCES wildo_users(id) ON DELETE CASCADE,
  grant_data jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX wildo_oauth_authorization_codes_by_expiry ON wildo_oauth_authorization_codes (expires_at);
CREATE TABLE wildo_oauth_consent_requests (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES wildo_users(id) ON DELETE CASCADE,
  request_data jsonb NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX wildo_oauth_consent_requests_by_expiry ON wildo_oauth_consent_requests (expires_at);
`,
  },
  {
    id: '0102_token_revocations',
    sql: `
CREATE TABLE wildo_token_revocations (
  subject text PRIMARY KEY,
  revoked_at timestamptz NOT NULL
);
CREATE INDEX wildo_token_revocations_by_time ON wildo_token_revocations (revoked_at);
`,
  },
];
