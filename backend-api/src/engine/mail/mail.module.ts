import type { Clock, ModuleBase } from '../container/index.js';
import type { Logger } from '../logging/index.js';
import type { SqlDatabase } from '../persistence/index.js';
import { MAIL_MIGRATIONS } from './mail.migrations.js';
import { DEFAULT_MAIL_FROM, type MailSender, type MailSettings } from './mail.types.js';
import { OutboxMailSender } from './outbox.mail-sender.js';
import { SmtpMailSender } from './smtp.mail-sender.js';

/** The outbox table (the sender is built by `createWildoBackend`). */
export const mailModule: ModuleBase = {
  name: 'wildo-mail',
  migrations: MAIL_MIGRATIONS,
};

/** What {@link createMailSender} chose: the sender, and the outbox when that is where mails go. */
export interface MailSetup {
  sender: MailSender;
  outbox: OutboxMailSender | undefined;
}

/**
 * The backend's mail sender: the application's own when given, SMTP when `smtpUrl` is set, else the outbox in the
 * application's database. In production without SMTP nothing is delivered, which the start-up log says.
 */
export function createMailSender(options: {
  settings: Partial<MailSettings> & { sender?: MailSender };
  database: SqlDatabase;
  clock: Clock;
  logger: Logger;
  production: boolean;
}): MailSetup {
  const { settings } = options;
  if (settings.sender) return { sender: settings.sender, outbox: undefined };
  if (settings.smtpUrl) {
    return { sender: new SmtpMailSender(settings.smtpUrl, settings.from ?? DEFAULT_MAIL_FROM), outbox: undefined };
  }
  if (options.production) {
    options.logger.warn(
      'no SMTP server is configured (WILDO_SMTP_URL): sign-up, verification and invitation mails are kept in the wildo_mail_outbox table and not delivered',
    );
  }
  const outbox = new OutboxMailSender(options.database, options.clock);
  return { sender: outbox, outbox };
}
