import { Router } from 'express';
import { z } from 'zod';
import { FrameworkError } from '../errors/index.js';
import type { OutboxMailSender } from './outbox.mail-sender.js';

const OutboxQuery = z.strictObject({
  to: z.string().trim().min(1).max(254).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .optional(),
});

/** The outbox's query, or a refusal naming what each parameter expects (never the value sent). */
function outboxQueryOf(query: unknown): z.infer<typeof OutboxQuery> {
  const parsed = OutboxQuery.safeParse(query);
  if (parsed.success) return parsed.data;
  throw new FrameworkError('VALIDATION_FAILED', 'The outbox query is not valid.', {
    reason: 'input_invalid',
    problems: [
      { path: 'to', expected: 'an address (optional)' },
      { path: 'limit', expected: 'a number of mails, 1 to 500 (optional)' },
    ],
  });
}

/**
 * `GET /dev/outbox[?to=<address>&limit=<n>]`: the mails a development backend kept instead of sending (newest
 * first, with their links), for the outbox page and for scripts that follow a sign-up link. Mounted only in
 * development, with the outbox as the mail sender; it needs no credential, like a local mail catcher.
 */
export function createOutboxRouter(outbox: OutboxMailSender): Router {
  const router = Router();
  router.get('/dev/outbox', async (req, res) => {
    const query = outboxQueryOf(req.query);
    const mails = await outbox.list({
      ...(query.to ? { to: query.to } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
    });
    res.setHeader('cache-control', 'no-store');
    res.json({ data: mails });
  });
  return router;
}
