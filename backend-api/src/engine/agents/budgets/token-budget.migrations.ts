import type { SqlMigration } from '../../persistence/index.js';

/**
 * Feature resolution and token metering. Tenants are `(tenant_kind, tenant_id)`: `organization`/`user` with
 * their id, `application` with the empty id. No foreign keys to identity tables: the application scope has no
 * row there, and admission reads these tables alone (one statement, no joins).
 *
 * - `wildo_tenant_plans`: the tenant's active catalogue plans (product refs of the runtime `products`).
 * - `wildo_feature_overrides`: manual per-tenant values, optionally expiring.
 * - `wildo_feature_profiles`: per tenant kind values (the application scope's allowance; a default for kinds).
 * - `wildo_feature_consumption`: what each tenant used of a metered feature per UTC calendar month.
 * - `wildo_feature_consumption_daily`: the same per UTC day (the usage page's chart); written in the same
 *   statement as the monthly row, which stays the one admission reads.
 */
export const TOKEN_BUDGET_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0201_feature_limits_and_token_consumption',
    sql: `
CREATE TABLE wildo_tenant_plans (
  tenant_kind text NOT NULL CHECK (tenant_kind IN ('organization', 'user', 'application')),
  tenant_id text NOT NULL,
  product_ref text NOT NULL,
  assigned_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_kind, tenant_id, product_ref)
);
CREATE TABLE wildo_feature_overrides (
  tenant_kind text NOT NULL CHECK (tenant_kind IN ('organization', 'user', 'application')),
  tenant_id text NOT NULL,
  feature_id text NOT NULL,
  value bigint NOT NULL CHECK (value >= 0),
  expires_at timestamptz,
  note text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_kind, tenant_id, feature_id)
);
CREATE TABLE wildo_feature_profiles (
  tenant_kind text NOT NULL CHECK (tenant_kind IN ('organization', 'user', 'application')),
  feature_id text NOT NULL,
  value bigint NOT NULL CHECK (value >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_kind, feature_id)
);
CREATE TABLE wildo_feature_consumption (
  tenant_kind text NOT NULL CHECK (tenant_kind IN ('organization', 'user', 'application')),
  tenant_id text NOT NULL,
  feature_id text NOT NULL,
  period_start date NOT NULL,
  consumed bigint NOT NULL CHECK (consumed >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_kind, tenant_id, feature_id, period_start)
);
`,
  },
  {
    id: '0701_feature_consumption_daily',
    sql: `
CREATE TABLE wildo_feature_consumption_daily (
  tenant_kind text NOT NULL CHECK (tenant_kind IN ('organization', 'user', 'application')),
  tenant_id text NOT NULL,
  feature_id text NOT NULL,
  day date NOT NULL,
  consumed bigint NOT NULL CHECK (consumed >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_kind, tenant_id, feature_id, day)
);
`,
  },
];
