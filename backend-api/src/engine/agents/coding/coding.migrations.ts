import type { SqlMigration } from '../../persistence/index.js';

/** Coding-agent sessions (what a continuation reopens) and runs (what each dispatch did, with its record). */
export const CODING_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0801_coding_agent_sessions_and_runs',
    sql: `
CREATE TABLE wildo_coding_sessions (
  agent_ref text NOT NULL,
  session_id text NOT NULL,
  owner_key text NOT NULL,
  workspace_root text NOT NULL,
  status text NOT NULL,
  resumable boolean NOT NULL,
  question text,
  awaiting_input_until timestamptz,
  last_run_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (agent_ref, session_id)
);
CREATE TABLE wildo_coding_runs (
  id text PRIMARY KEY,
  agent_ref text NOT NULL,
  owner_key text NOT NULL,
  profile_ref text NOT NULL,
  session_id text,
  continuation boolean NOT NULL,
  status text NOT NULL,
  stop_reason text,
  final_message text,
  turns integer NOT NULL DEFAULT 0,
  auto_continuations integer NOT NULL DEFAULT 0,
  usage jsonb,
  record jsonb NOT NULL DEFAULT '[]',
  record_dropped integer NOT NULL DEFAULT 0,
  failure text,
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX wildo_coding_runs_by_session ON wildo_coding_runs (agent_ref, session_id, started_at);
`,
  },
];
