import { randomUUID } from 'node:crypto';
import type { Clock } from '../container/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import { MAIL_OUTBOX_TABLE as OUTBOX } from './mail.migrations.js';
import type { MailMessage, MailSender } from './mail.types.js';

/** Mails the outbox keeps; older ones are dropped as new ones arrive. */
export const OUTBOX_CAPACITY = 500;

/** A mail as the outbox shows it, with the links of its text picked out. */
export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  sentAt: string;
  links: string[];
}

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  body_text: string;
  kind: string;
  sent_at: Date | string;
}

const LINK = /https?:\/\/[^\s<>"')]+/g;

/**
 * The mail sender of a backend without SMTP: every mail is kept in the application's own database (the latest
 * {@link OUTBOX_CAPACITY}, shared by every replica), where the development outbox page shows it. Nothing leaves
 * the machine.
 *
 * @example
 * const outbox = new OutboxMailSender(database, clock);
 * (await outbox.list({ to: 'ada@example.com' }))[0]?.links; // the verification link of her last mail
 */
export class OutboxMailSender implements MailSender {
  readonly kind = 'outbox';

  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.query(
      `INSERT INTO ${OUTBOX} (id, recipient, recipient_normalized, subject, body_text, body_html, kind, sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        randomUUID(),
        message.to,
        message.to.trim().toLowerCase(),
        message.subject,
        message.text,
        message.html ?? null,
        message.kind,
        this.clock.now(),
      ],
    );
    await this.db.query(
      `DELETE FROM ${OUTBOX} WHERE id IN (SELECT id FROM ${OUTBOX} ORDER BY sent_at DESC, id OFFSET $1)`,
      [OUTBOX_CAPACITY],
    );
  }

  /** The latest mails, newest first: all of them, or those to one address (any letter case). */
  async list(filter: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), OUTBOX_CAPACITY);
    const { rows } = filter.to
      ? await this.db.query<OutboxRow>(
          `SELECT id, recipient, subject, body_text, kind, sent_at FROM ${OUTBOX}
           WHERE recipient_normalized = $1 ORDER BY sent_at DESC, id LIMIT $2`,
          [filter.to.trim().toLowerCase(), limit],
        )
      : await this.db.query<OutboxRow>(
          `SELECT id, recipient, subject, body_text, kind, sent_at FROM ${OUTBOX} ORDER BY sent_at DESC, id LIMIT $1`,
          [limit],
        );
    return rows.map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: row.body_text,
      kind: row.kind,
      sentAt: new Date(row.sent_at).toISOString(),
      links: [...row.body_text.matchAll(LINK)].map((match) => match[0]),
    }));
  }
}
