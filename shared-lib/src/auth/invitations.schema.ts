import { z } from 'zod';

/** Where an invitation stands; `expired` is a pending invitation past its `expiresAt`. */
export const InvitationStatusSchema = z.enum(['pending', 'accepted', 'declined', 'revoked', 'expired']);
export type InvitationStatus = z.infer<typeof InvitationStatusSchema>;

/**
 * An invitation as the organization's admins see it (`POST/GET /api/v1/organizations/:organizationId/invitations`).
 * It names the invited email (normalized) and never says whether an account exists for it.
 */
export const SentInvitationSchema = z.object({
  _id: z.string().min(1),
  organizationId: z.string().min(1),
  email: z.string(),
  role: z.string(),
  status: InvitationStatusSchema,
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  decidedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type SentInvitation = z.infer<typeof SentInvitationSchema>;

/** A pending invitation as the invited person lists it at `GET /api/v1/invitations`. */
export const ReceivedInvitationSchema = z.object({
  _id: z.string().min(1),
  organizationId: z.string().min(1),
  organizationName: z.string(),
  role: z.string(),
  /** Display name or email of the admin who invited, when that account still exists. */
  invitedBy: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});
export type ReceivedInvitation = z.infer<typeof ReceivedInvitationSchema>;
