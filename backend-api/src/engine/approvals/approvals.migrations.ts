import type { SqlMigration } from '../persistence/index.js';

/** Approvals of operation calls: pending, decided, spent; bound to caller, operation and input digest. */
export const APPROVALS_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0301_operation_approvals',
    sql: `
CREATE TABLE wildo_operation_approvals (
  id text PRIMARY KEY,
  requester_key text NOT NULL,
  user_id text NOT NULL,
  surface text NOT NULL,
  operation text NOT NULL,
  title text NOT NULL,
  description text,
  effect text NOT NULL,
  organization_id text,
  record_id text,
  input_digest text NOT NULL,
  arguments jsonb NOT NULL,
  input_schema jsonb,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  used_at timestamptz
);
CREATE INDEX wildo_operation_approvals_pending ON wildo_operation_approvals (user_id, status, created_at);
`,
  },
];
