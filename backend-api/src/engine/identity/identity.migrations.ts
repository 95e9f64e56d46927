import type { SqlMigration } from '../persistence/index.js';

/** Tables of users, organizations, memberships, invitations, consumable tokens (step-up proofs, ...) and signing keys. */
export const IDENTITY_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0001_identity',
    sql: `
CREATE TABLE wildo_users (
  id text PRIMARY KEY,
  email text NOT NULL,
  email_normalized text NOT NULL UNIQUE,
  display_name text,
  password_hash text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  app_roles jsonb NOT NULL,
  authorization_version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE wildo_organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_by_user_id text NOT NULL REFERENCES wildo_users(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE wildo_memberships (
  organization_id text NOT NULL REFERENCES wildo_organizations(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES wildo_users(id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX wildo_memberships_by_user ON wildo_memberships (user_id);
CREATE TABLE wildo_signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_jwk_sealed text NOT NULL,
  created_at timestamptz NOT NULL,
  retired_at timestamptz
);
`,
  },
  {
    id: '0002_step_up_proofs',
    sql: `
CREATE TABLE wildo_reauth_proofs (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES wildo_users(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX wildo_reauth_proofs_by_expiry ON wildo_reauth_proofs (expires_at);
`,
  },
  {
    id: '0003_organization_invitations',
    sql: `
CREATE TABLE wildo_invitations (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES wildo_organizations(id) ON DELETE CASCADE,
  email_normalized text NOT NULL,
  role text NOT NULL,
  status text NOT NULL,
  invited_by_user_id text REFERENCES wildo_users(id) ON DELETE SET NULL,
  decided_by_user_id text REFERENCES wildo_users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE UNIQUE INDEX wildo_invitations_one_pending ON wildo_invitations (organization_id, email_normalized) WHERE status = 'pending';
CREATE INDEX wildo_invitations_by_email ON wildo_invitations (email_normalized) WHERE status = 'pending';
CREATE INDEX wildo_invitations_by_organization ON wildo_invitations (organization_id, created_at);
`,
  },
  {
    // Step-up proofs and consent requests move here; their old tables stay for replicas of the previous
    // build during a rolling deploy (a proof issued there is refused here: the person re-authenticates).
    id: '0004_consumable_tokens',
    sql: `
CREATE TABLE wildo_consumable_tokens (
  token_hash text PRIMARY KEY,
  token_type text NOT NULL,
  consumption_mode text NOT NULL,
  user_id text REFERENCES wildo_users(id) ON DELETE CASCADE,
  organization_id text REFERENCES wildo_organizations(id) ON DELETE CASCADE,
  resource_identifier text,
  related_id text,
  roles jsonb NOT NULL,
  metadata jsonb,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX wildo_consumable_tokens_by_expiry ON wildo_consumable_tokens (expires_at);
`,
  },
  {
    // When the account proved its address (a link mailed to it was opened); null: never. Only a proven address
    // may accept an invitation sent to it.
    id: '0005_email_verification',
    sql: 'ALTER TABLE wildo_users ADD COLUMN email_verified_at timestamptz;',
  },
];
