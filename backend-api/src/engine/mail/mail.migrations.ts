import type { SqlMigration } from '../persistence/index.js';

/** The outbox table: the mails of a backend without SMTP (the latest few hundred), for the development page. */
export const MAIL_OUTBOX_TABLE = 'wildo_mail_outbox';

/** The outbox: mails kept in the application's own database when no SMTP server is configured. */
export const MAIL_MIGRATIONS: readonly SqlMigration[] = [
  {
    id: '0901_mail_outbox',
    sql: `
CREATE TABLE ${MAIL_OUTBOX_TABLE} (
  id text PRIMARY KEY,
  recipient text NOT NULL,
  recipient_normalized text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  body_html text,
  kind text NOT NULL,
  sent_at timestamptz NOT NULL
);
CREATE INDEX ${MAIL_OUTBOX_TABLE}_recipient_idx ON ${MAIL_OUTBOX_TABLE} (recipient_normalized, sent_at);
CREATE INDEX ${MAIL_OUTBOX_TABLE}_sent_idx ON ${MAIL_OUTBOX_TABLE} (sent_at);
`,
  },
];
