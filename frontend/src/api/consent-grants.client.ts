import { requestJson } from './api.client';
import { AnyBodySchema, ConsentGrantListSchema, type ConsentGrantRecord } from './contracts';

export type { ConsentGrantRecord } from './contracts';

/** One page of the signed-in person's remembered consents. */
export interface ConsentGrantPage {
  grants: ConsentGrantRecord[];
  nextCursor: string | null;
}

/** Collection path of the person's remembered consents (scoped to the caller by the backend). */
export const CONSENT_GRANTS_PATH = '/api/v1/oauth-consent-grants';

/** `GET /api/v1/oauth-consent-grants[?cursor=...]`. */
export async function listConsentGrants(
  accessToken: string,
  options: { cursor?: string; signal?: AbortSignal } = {},
): Promise<ConsentGrantPage> {
  const query = options.cursor ? `?${new URLSearchParams({ cursor: options.cursor }).toString()}` : '';
  const body = await requestJson(`${CONSENT_GRANTS_PATH}${query}`, {
    accessToken,
    signal: options.signal,
    schema: ConsentGrantListSchema,
  });
  return { grants: body.data, nextCursor: body.nextCursor ?? null };
}

/** `DELETE /api/v1/oauth-consent-grants/:id`: withdraws one remembered consent. */
export async function withdrawConsentGrant(grantId: string, accessToken: string): Promise<void> {
  await requestJson(`${CONSENT_GRANTS_PATH}/${encodeURIComponent(grantId)}`, {
    method: 'DELETE',
    accessToken,
    schema: AnyBodySchema,
  });
}
