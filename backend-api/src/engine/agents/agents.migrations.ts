import type { SqlMigration } from '../persistence/index.js';

/** Conversations (executions and their messages) and pending approvals of tool calls. */
export const AGENTS_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0201_agent_conversations_and_approvals',
    sql: `
CREATE TABLE wildo_agent_executions (
  id text PRIMARY KEY,
  system_ref text NOT NULL,
  agent_ref text NOT NULL,
  owner_key text NOT NULL,
  credential_key text NOT NULL,
  organization_id text,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX wildo_agent_executions_by_owner ON wildo_agent_executions (owner_key, updated_at DESC);
CREATE TABLE wildo_agent_messages (
  execution_id text NOT NULL REFERENCES wildo_agent_executions(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  message jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (execution_id, seq)
);
CREATE TABLE wildo_agent_approvals (
  id text PRIMARY KEY,
  execution_id text NOT NULL REFERENCES wildo_agent_executions(id) ON DELETE CASCADE,
  owner_key text NOT NULL,
  function_ref text NOT NULL,
  tool_call_id text NOT NULL,
  arguments jsonb NOT NULL,
  arguments_hash text NOT NULL,
  allow_modification boolean NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE INDEX wildo_agent_approvals_pending ON wildo_agent_approvals (owner_key, status, created_at);
`,
  },
];
