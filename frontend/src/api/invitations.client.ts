import { requestJson } from './api.client';
import { AcceptInvitationResponseSchema, AnyBodySchema, ReceivedInvitationListSchema } from './contracts';

export type { ReceivedInvitation } from '@wildo/shared-lib';

/** The signed-in person's invitations (scoped to the caller by the backend). */
export const INVITATIONS_PATH = '/api/v1/invitations';

/** What accepting answers: the organization joined, and the access token that replaces the caller's. */
export interface AcceptedInvitation {
  organization: { _id: string; name: string; role: string };
  accessToken: string;
}

const invitationPath = (invitationId: string, action: 'accept' | 'decline') =>
  `${INVITATIONS_PATH}/${encodeURIComponent(invitationId)}/${action}`;

/** `GET /api/v1/invitations`: the open invitations addressed to the signed-in person's email. */
export async function listInvitations(accessToken: string, options: { signal?: AbortSignal } = {}) {
  const body = await requestJson(INVITATIONS_PATH, {
    accessToken,
    signal: options.signal,
    schema: ReceivedInvitationListSchema,
  });
  return body.data;
}

/** `POST /api/v1/invitations/:id/accept`: joins the organization; the old access token stops working. */
export async function acceptInvitation(invitationId: string, accessToken: string): Promise<AcceptedInvitation> {
  const body = await requestJson(invitationPath(invitationId, 'accept'), {
    method: 'POST',
    accessToken,
    schema: AcceptInvitationResponseSchema,
  });
  return { organization: body.data.organization, accessToken: body.data.accessToken };
}

/** `POST /api/v1/invitations/:id/decline`. */
export async function declineInvitation(invitationId: string, accessToken: string): Promise<void> {
  await requestJson(invitationPath(invitationId, 'decline'), { method: 'POST', accessToken, schema: AnyBodySchema });
}
