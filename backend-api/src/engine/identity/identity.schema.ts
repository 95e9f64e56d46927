import { z } from 'zod';

const email = z.email().max(254);
/** Long enough to resist guessing, bounded so hashing cost stays predictable. */
const password = z.string().min(10).max(256);

/** `POST /api/v1/auth/signup`. */
export const SignupRequestSchema = z.strictObject({
  email,
  password,
  displayName: z.string().trim().min(1).max(100).optional(),
});
export type SignupRequest = z.infer<typeof SignupRequestSchema>;

/** `POST /api/v1/auth/verify-email`: the token of a link mailed to an address. */
export const VerifyEmailRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** `POST /api/v1/auth/login`. */
export const LoginRequestSchema = z.strictObject({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

/** `POST /api/v1/auth/reauth`: a fresh credential check for a sensitive operation. */
export const ReauthRequestSchema = z.strictObject({
  method: z.literal('PASSWORD'),
  password: z.string().min(1).max(256),
});

/** `POST /api/v1/organizations`. */
export const CreateOrganizationRequestSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
});

const orgRole = z.enum(['ORG_ADMIN', 'ORG_MANAGER', 'ORG_MEMBER']);

/**
 * `POST /api/v1/organizations/:organizationId/invitations` (and its older name `.../members`): invites an email
 * with a role; the person it belongs to accepts or declines.
 */
export const CreateInvitationRequestSchema = z.strictObject({ email, role: orgRole });

/** `PUT /api/v1/organizations/:organizationId/members/:userId`. */
export const ChangeMemberRoleRequestSchema = z.strictObject({ role: orgRole });

/** `PUT /api/v1/users/:userId/app-roles` (APP_ADMIN). */
export const SetApplicationRolesRequestSchema = z.strictObject({
  roles: z
    .array(z.enum(['APP_ADMIN', 'APP_USER']))
    .min(1)
    .max(2),
});

/** A user as the API shows it. */
export interface PublicUser {
  _id: string;
  email: string;
  displayName: string | null;
  appRoles: string[];
  /** Whether the account proved its address through a link mailed to it (needed to accept an invitation). */
  emailVerified: boolean;
  createdAt: string;
}

/** An organization as its members see it. */
export interface PublicOrganization {
  _id: string;
  name: string;
  role: string;
  createdAt: string;
}

/** A membership as the organization's members see it. */
export interface PublicMember {
  userId: string;
  email: string;
  displayName: string | null;
  role: string;
  createdAt: string;
}
