import type { MailMessage } from '../mail/index.js';

/** The name a mail signs with: the application's display name. */
export interface MailContext {
  applicationName: string;
}

/** The link that finishes a sign-up: the address is proven by opening it. */
export function signupMail(to: string, link: string, hours: number, context: MailContext): MailMessage {
  return {
    to,
    kind: 'sign-up',
    subject: `Finish creating your ${context.applicationName} account`,
    text: [
      `Someone, probably you, asked to create a ${context.applicationName} account with this address.`,
      '',
      'Open this link to finish (it works once, for the next ' + `${hours} hours):`,
      link,
      '',
      'If it was not you, ignore this mail: no account is created without the link.',
    ].join('\n'),
  };
}

/** The answer to a sign-up with an address that already has an account. */
export function alreadyRegisteredMail(to: string, signInLink: string, context: MailContext): MailMessage {
  return {
    to,
    kind: 'already-registered',
    subject: `You already have a ${context.applicationName} account`,
    text: [
      `Someone, probably you, asked to create a ${context.applicationName} account with this address, which already has one.`,
      '',
      'Sign in here instead:',
      signInLink,
      '',
      'If it was not you, ignore this mail: nothing changed.',
    ].join('\n'),
  };
}

/** The link that proves the address of an existing account (accounts made before addresses were checked). */
export function verificationMail(to: string, link: string, hours: number, context: MailContext): MailMessage {
  return {
    to,
    kind: 'email-verification',
    subject: `Confirm your address for ${context.applicationName}`,
    text: [
      `Open this link to confirm that this address is yours (it works once, for the next ${hours} hours):`,
      link,
      '',
      'Once confirmed, you can accept invitations sent to it. If you did not ask for this, ignore this mail.',
    ].join('\n'),
  };
}

/** An invitation to join an organization, for the person at the address. */
export function invitationMail(
  to: string,
  invitation: { organizationName: string; invitedBy: string; role: string; days: number },
  links: { invitations: string; signup: string },
  context: MailContext,
): MailMessage {
  const role = invitation.role.replace(/^ORG_/, '').toLowerCase();
  return {
    to,
    kind: 'invitation',
    subject: `${invitation.invitedBy} invited you to ${invitation.organizationName}`,
    text: [
      `${invitation.invitedBy} invited you to join ${invitation.organizationName} on ${context.applicationName} as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
      '',
      'Accept or decline it here (sign in with this address first):',
      links.invitations,
      '',
      'No account yet? Create one with this address, open the link we mail you, then come back to the link above:',
      links.signup,
      '',
      `The invitation can be accepted for ${invitation.days} days.`,
    ].join('\n'),
  };
}
