import type { SqlMigration } from '../persistence/index.js';

/**
 * The audit trail: entries appended with a sequence number (no lock between requests), chained by a sealer in one
 * order (`chain_index`, each `hash` a keyed hash over the entry and the previous hash), and a head that holds the
 * last sealed link so a removed tail is noticed too. A trigger keeps the table append-only: the only change it
 * admits is sealing an unsealed entry, and nothing is deleted.
 */
export const AUDIT_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0401_audit_trail',
    sql: `
CREATE TABLE wildo_audit_entries (
  seq bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  operation text NOT NULL,
  surface text NOT NULL,
  phase text NOT NULL,
  outcome text NOT NULL,
  code text,
  reason text,
  principal text,
  organization_id text,
  policy_rule text,
  backend_status integer,
  duration_ms double precision NOT NULL,
  request_id text NOT NULL,
  approval_id text,
  chain_index bigint UNIQUE,
  hash text
);
CREATE INDEX wildo_audit_entries_at ON wildo_audit_entries (at, seq);
CREATE INDEX wildo_audit_entries_unsealed ON wildo_audit_entries (seq) WHERE chain_index IS NULL;
CREATE TABLE wildo_audit_head (
  id integer PRIMARY KEY CHECK (id = 1),
  chain_index bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO wildo_audit_head (id, chain_index, hash) VALUES (1, 0, '');
CREATE FUNCTION wildo_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.chain_index IS NULL AND NEW.chain_index IS NOT NULL
     AND (to_jsonb(NEW) - 'chain_index' - 'hash') = (to_jsonb(OLD) - 'chain_index' - 'hash') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the audit trail is append-only';
END;
$$;
CREATE TRIGGER wildo_audit_append_only BEFORE UPDATE OR DELETE ON wildo_audit_entries
  FOR EACH ROW EXECUTE FUNCTION wildo_audit_append_only();
`,
  },
];
