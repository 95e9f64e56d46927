import * as z from 'zod/mini';
import { requestJson } from './api.client';

const OutboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  kind: z.string(),
  sentAt: z.string(),
  links: z.array(z.string()),
});
const OutboxResponseSchema = z.object({ data: z.array(OutboxMailSchema) });

/** A mail the development backend kept instead of sending. */
export type OutboxMail = z.infer<typeof OutboxMailSchema>;

/** `GET /api/v1/dev/outbox[?to=]`: the latest mails, newest first (404 when the backend has no outbox). */
export async function fetchOutbox(to: string, signal?: AbortSignal): Promise<OutboxMail[]> {
  const query = to.trim() ? `?to=${encodeURIComponent(to.trim())}` : '';
  const body = await requestJson(`/api/v1/dev/outbox${query}`, { signal, schema: OutboxResponseSchema });
  return body.data;
}
