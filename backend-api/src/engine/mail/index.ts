// Mail: the sender (SMTP, or the outbox a development backend keeps) and the outbox's route.
export { createMailSender, mailModule, type MailSetup } from './mail.module.js';
export {
  DEFAULT_MAIL_FROM,
  type MailKind,
  type MailMessage,
  type MailSender,
  type MailSettings,
} from './mail.types.js';
export { OUTBOX_CAPACITY, OutboxMailSender, type OutboxMail } from './outbox.mail-sender.js';
export { createOutboxRouter } from './outbox.routes.js';
export { SmtpMailSender } from './smtp.mail-sender.js';
