import * as z from 'zod/mini';
import { requestJson } from './api.client';

/** An organization as its members see it, with the caller's role in it. */
export interface OrganizationSummary {
  _id: string;
  name: string;
  role: string;
}

/** A member as the organization's members see them. */
export interface MemberSummary {
  userId: string;
  email: string;
  displayName: string | null;
  role: string;
}

/** An invitation as the organization's admins see it. */
export interface SentInvitationSummary {
  _id: string;
  email: string;
  role: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
}

const OrganizationSchema = z.object({ _id: z.string(), name: z.string(), role: z.string() });
const MemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.nullable(z.string()),
  role: z.string(),
});
const SentInvitationSchema = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.nullable(z.string()),
});
const MeSchema = z.object({
  data: z.object({
    user: z.object({ _id: z.string(), email: z.string(), appRoles: z.optional(z.array(z.string())) }),
    organizations: z.array(OrganizationSchema),
  }),
});
const SessionSchema = z.object({ data: z.object({ accessToken: z.optional(z.string()) }) });

const ORGS = '/api/v1/organizations';
const orgPath = (organizationId: string) => `${ORGS}/${encodeURIComponent(organizationId)}`;

/** `GET /api/v1/auth/me`: who is signed in, their application roles and their organizations. */
export async function fetchSession(accessToken: string, signal?: AbortSignal) {
  const body = await requestJson('/api/v1/auth/me', { accessToken, signal, schema: MeSchema });
  return { user: body.data.user, appRoles: body.data.user.appRoles ?? [], organizations: body.data.organizations };
}

/** `POST /api/v1/organizations`: the caller becomes its ORG_ADMIN. */
export async function createOrganization(name: string, accessToken: string): Promise<OrganizationSummary> {
  const body = await requestJson(ORGS, {
    method: 'POST',
    body: { name },
    accessToken,
    schema: z.object({ data: OrganizationSchema }),
  });
  return body.data;
}

/** `GET /api/v1/organizations/:id/members`. */
export async function listMembers(organizationId: string, accessToken: string, signal?: AbortSignal) {
  const body = await requestJson(`${orgPath(organizationId)}/members`, {
    accessToken,
    signal,
    schema: z.object({ data: z.array(MemberSchema) }),
  });
  return body.data;
}

/** `PUT /api/v1/organizations/:id/members/:userId` (ORG_MANAGER or above, within the caller's own role). */
export async function changeMemberRole(organizationId: string, userId: string, role: string, accessToken: string) {
  await requestJson(`${orgPath(organizationId)}/members/${encodeURIComponent(userId)}`, {
    method: 'PUT',
    body: { role },
    accessToken,
    schema: z.object({ data: MemberSchema }),
  });
}

/** `DELETE /api/v1/organizations/:id/members/me`: leaves; answers the fresh access token that replaces the caller's. */
export async function leaveOrganization(organizationId: string, accessToken: string): Promise<string | undefined> {
  const body = await requestJson(`${orgPath(organizationId)}/members/me`, {
    method: 'DELETE',
    accessToken,
    schema: SessionSchema,
  });
  return body.data.accessToken;
}

/** `DELETE /api/v1/organizations/:id/members/:userId` (ORG_ADMIN): removes another member. */
export async function removeMember(organizationId: string, userId: string, accessToken: string): Promise<void> {
  await requestJson(`${orgPath(organizationId)}/members/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    accessToken,
    schema: z.unknown(),
  });
}

/** `GET /api/v1/organizations/:id/invitations` (ORG_ADMIN): every invitation sent, with its status. */
export async function listSentInvitations(organizationId: string, accessToken: string, signal?: AbortSignal) {
  const body = await requestJson(`${orgPath(organizationId)}/invitations`, {
    accessToken,
    signal,
    schema: z.object({ data: z.array(SentInvitationSchema) }),
  });
  return body.data;
}

/** `POST /api/v1/organizations/:id/invitations` (ORG_ADMIN). */
export async function sendInvitation(organizationId: string, email: string, role: string, accessToken: string) {
  await requestJson(`${orgPath(organizationId)}/invitations`, {
    method: 'POST',
    body: { email, role },
    accessToken,
    schema: z.object({ data: SentInvitationSchema }),
  });
}

/** `POST /api/v1/organizations/:id/invitations/:invitationId/revoke` (ORG_ADMIN). */
export async function revokeInvitation(organizationId: string, invitationId: string, accessToken: string) {
  await requestJson(`${orgPath(organizationId)}/invitations/${encodeURIComponent(invitationId)}/revoke`, {
    method: 'POST',
    accessToken,
    schema: z.unknown(),
  });
}
