/** What a mail is for: shown in the outbox and the log, never in the mail itself. */
export type MailKind = 'sign-up' | 'already-registered' | 'email-verification' | 'invitation' | (string & {});

/** One mail to one person: a subject and plain text (links written out in full), optionally HTML. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: MailKind;
}

/**
 * Where the backend's mails go: SMTP when configured, else the outbox (`/dev/outbox` in development). An
 * application may bind its own (a provider's API) as `SAAS_SERVICE_TYPES.MailSender`.
 */
export interface MailSender {
  /** `smtp`, `outbox`, or the name of an application's own sender. */
  readonly kind: string;
  /** Sends one mail; rejects when it could not be handed over (the caller decides what the person is told). */
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}

/** Mail settings of a backend (`WILDO_SMTP_URL`, `WILDO_MAIL_FROM`). */
export interface MailSettings {
  /** `smtp://user:password@host:587` or `smtps://...:465`; without it mails stay in the outbox. */
  smtpUrl?: string;
  /** The sender address (`Name <address>`); default `Wildo <no-reply@localhost>`. */
  from: string;
}

/** The sender address when none is configured. */
export const DEFAULT_MAIL_FROM = 'Wildo <no-reply@localhost>';
