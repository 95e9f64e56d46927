import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, MailSender } from './mail.types.js';

/** How long one SMTP exchange may take (connection, greeting, each command), in milliseconds. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Sends mail over SMTP with nodemailer (one pooled transport). The URL carries host, port, TLS (`smtps://`) and
 * credentials; every step has a timeout, so a dead server fails a send instead of holding a request.
 *
 * @example
 * const sender = new SmtpMailSender('smtps://apikey:secret@smtp.example.com:465', 'Todos <no-reply@todos.example>');
 */
export class SmtpMailSender implements MailSender {
  readonly kind = 'smtp';
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
