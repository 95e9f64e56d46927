import { ConsumableToken_ConsumptionMode, CoreConsumableTokenTypes, DurationUnit } from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import { SAAS_SERVICE_TYPES as T } from '../container/index.js';
import { FrameworkError } from '../errors/index.js';
import type { ConsumableTokenService } from './consumable-tokens.service.js';
import type { SignupRequest } from './identity.schema.js';
import type { IdentityMailer } from './identity-mailer.js';
import { alreadyRegisteredMail, signupMail, verificationMail } from './identity-mails.js';
import type { PasswordHasher } from './password-hasher.service.js';
import { normalizeEmail, type AuthenticatedUser, type UsersService } from './users.service.js';
import type { PublicUser } from './identity.schema.js';

/** How long a link mailed to an address works (hours). */
export const EMAIL_LINK_LIFETIME_HOURS = 24;

/** What an address link stands for, kept server-side in its consumable token. */
type EmailLinkMetadata =
  | { purpose: 'signup'; email: string; passwordHash: string; displayName?: string }
  | { purpose: 'verify'; userId: string; emailNormalized: string };

/** What opening a link did: a new account (signed in at once), or an existing account's address proven. */
export type EmailLinkOutcome = { created: AuthenticatedUser } | { verified: PublicUser };

const linkRefused = () =>
  new FrameworkError('UNAUTHENTICATED', 'This link was already used or has expired: ask for a new one.', {
    reason: 'credential_invalid',
  });

/**
 * Proof that a person owns an address. A sign-up creates nothing: it mails a single-use link to the address, and the
 * account exists once the link is opened (so no account is ever held by someone who cannot read its mail). A sign-up
 * with an address that already has an account mails that instead; both answer the same, so the answer tells nobody
 * whether an address is registered, and both cost a password hash. An account made before addresses were checked
 * proves its own with {@link requestVerification}. Invitations are accepted only by proven addresses.
 *
 * @example
 * await ownership.requestSignup({ email, password }); // 202 for every address
 * const outcome = await ownership.openLink(token);     // { created } or { verified }
 */
@injectable()
export class EmailOwnershipService {
  constructor(
    @inject(T.UsersService) private readonly users: UsersService,
    @inject(T.ConsumableTokenService) private readonly tokens: ConsumableTokenService,
    @inject(T.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(T.IdentityMailer) private readonly mailer: IdentityMailer,
  ) {}

  /** Mails the address a link that finishes the sign-up, or, when it has an account, a note saying so. */
  async requestSignup(request: SignupRequest): Promise<void> {
    // Hashed either way: the two answers take the same time.
    const passwordHash = await this.hasher.hash(request.password);
    if (await this.users.emailTaken(request.email)) {
      const mail = alreadyRegisteredMail(request.email.trim(), this.mailer.pageUrl('/login'), this.mailer.context());
      await this.mailer.send(mail);
      return;
    }
    const link = await this.link({
      purpose: 'signup',
      email: request.email.trim(),
      passwordHash,
      ...(request.displayName ? { displayName: request.displayName } : {}),
    });
    await this.mailer.send(signupMail(request.email.trim(), link, EMAIL_LINK_LIFETIME_HOURS, this.mailer.context()));
  }

  /** Mails a signed-in account's own address a link that proves it (nothing when it is already proven). */
  async requestVerification(userId: string): Promise<void> {
    const user = await this.users.getById(userId);
    if (!user || user.emailVerified) return;
    const link = await this.link({ purpose: 'verify', userId, emailNormalized: normalizeEmail(user.email) });
    await this.mailer.send(verificationMail(user.email, link, EMAIL_LINK_LIFETIME_HOURS, this.mailer.context()));
  }

  /**
   * Opens a mailed link (once): a sign-up link creates the account with its address proven; a verification link
   * proves the address of the account it was sent for, while the account still has it.
   */
  async openLink(token: string): Promise<EmailLinkOutcome> {
    const consumed = await this.tokens.consume<EmailLinkMetadata>(token, {
      tokenType: CoreConsumableTokenTypes.EMAIL_VERIFICATION,
      userId: null,
    });
    const metadata = consumed?.metadata;
    if (!metadata) throw linkRefused();
    if (metadata.purpose === 'verify') {
      const verified = await this.users.markEmailVerified(metadata.userId, metadata.emailNormalized);
      if (!verified) throw linkRefused();
      return { verified };
    }
    const created = await this.users.createVerified(metadata);
    if (!created) {
      throw new FrameworkError('CONFLICT', 'This address already has an account: sign in instead.');
    }
    return { created };
  }

  private async link(metadata: EmailLinkMetadata): Promise<string> {
    const issued = await this.tokens.createToken<EmailLinkMetadata>({
      tokenType: CoreConsumableTokenTypes.EMAIL_VERIFICATION,
      consumptionMode: ConsumableToken_ConsumptionMode.SINGLE_USE,
      expiresIn: { value: EMAIL_LINK_LIFETIME_HOURS, unit: DurationUnit.HOURS },
      metadata,
    });
    // In the fragment: browsers never send it to a server, so it stays out of access logs and referrers.
    return this.mailer.pageUrl(`/verify-email#token=${encodeURIComponent(issued.token)}`);
  }
}
