import type { SqlMigration } from '../persistence/index.js';

/** A2A tasks, push notification configurations and their delivery attempts. */
export const A2A_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0601_a2a_tasks_and_push',
    sql: `
CREATE TABLE wildo_a2a_tasks (
  id text PRIMARY KEY,
  context_id text NOT NULL,
  audience text NOT NULL,
  skill_id text NOT NULL,
  owner_key text NOT NULL,
  organization_id text,
  state text NOT NULL,
  status_text text,
  approval jsonb,
  artifact_text text,
  version integer NOT NULL,
  lease_established boolean NOT NULL DEFAULT false,
  push_configured boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX wildo_a2a_tasks_by_owner ON wildo_a2a_tasks (owner_key, audience, created_at DESC);
CREATE INDEX wildo_a2a_tasks_running ON wildo_a2a_tasks (state, updated_at);
CREATE TABLE wildo_a2a_push_configs (
  id text PRIMARY KEY,
  task_id text NOT NULL REFERENCES wildo_a2a_tasks(id) ON DELETE CASCADE,
  config_id text NOT NULL,
  url text NOT NULL,
  token text,
  auth_scheme text,
  auth_credentials text,
  created_at timestamptz NOT NULL,
  UNIQUE (task_id, config_id)
);
CREATE TABLE wildo_a2a_push_deliveries (
  id text PRIMARY KEY,
  push_config_id text NOT NULL REFERENCES wildo_a2a_push_configs(id) ON DELETE CASCADE,
  task_id text NOT NULL,
  state text NOT NULL,
  attempt integer NOT NULL,
  outcome text NOT NULL,
  http_status integer,
  detail text,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX wildo_a2a_push_deliveries_by_task ON wildo_a2a_push_deliveries (task_id, attempted_at);
`,
  },
];
