import { inject, injectable } from 'inversify';
import type { RuntimeConfiguration } from '../config/index.js';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { MailMessage, MailSender } from '../mail/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import type { MailContext } from './identity-mails.js';

/** Sends the identity mails (sign-up links, invitations) through the backend's sender, with links to its pages. */
@injectable()
export class IdentityMailer {
  constructor(
    @inject(T.MailSender) private readonly mail: MailSender,
    @inject(T.PublicUrls) private readonly urls: PublicUrls,
    @inject(T.Logger) private readonly logger: Logger,
    @inject(T.ApplicationDefinition) private readonly application: { name: string },
    @inject(T.RuntimeConfiguration) private readonly runtime: Partial<RuntimeConfiguration>,
  ) {}

  /** The absolute URL of one of the application's pages (`/login`, `/verify-email#token=...`). */
  pageUrl(path: string): string {
    return this.urls.pageUrl(path);
  }

  /** The name mails sign with: the configured application name. */
  context(): MailContext {
    return { applicationName: this.runtime.application?.name ?? this.application.name };
  }

  /** Sends a mail the request depends on (a person told to check their inbox must get it): refuses when it fails. */
  async send(message: MailMessage): Promise<void> {
    try {
      await this.mail.send(message);
    } catch (error) {
      this.failed(message, error);
      throw new FrameworkError('SERVICE_UNAVAILABLE', 'The mail could not be sent; try again in a few minutes.', {
        retryAfterSeconds: 60,
        cause: error,
      });
    }
  }

  /** Sends a mail the request does not depend on (an invitation also shows on the invitee's page): logs a failure. */
  async notify(message: MailMessage): Promise<void> {
    await this.mail.send(message).catch((error: unknown) => this.failed(message, error));
  }

  private failed(message: MailMessage, error: unknown): void {
    this.logger.error('mail could not be sent', { kind: message.kind, sender: this.mail.kind, error: String(error) });
  }
}
