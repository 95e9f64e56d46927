import { z } from 'zod';

/** What a data directory lock file (and a takeover claim) records: the holding process and what it does. */
export const DataDirectoryLockRecordSchema = z.object({
  version: z.literal(1),
  pid: z.number().int().positive(),
  host: z.string().max(256),
  startTicks: z.string().regex(/^\d+$/).optional(),
  bootId: z.string().max(64).optional(),
  /** This acquisition, and only it: a takeover removes a file only while it still holds the nonce judged stale. */
  nonce: z.string().regex(/^[0-9a-f]{16,64}$/),
  /** When the holding process started (ISO 8601), for people reading the refusal. */
  startedAt: z.string().max(64),
  /** The holder's script and arguments, shortened. */
  command: z.string().max(512),
  /** Where the holder listens, once it does. */
  urls: z.array(z.string().max(512)).max(16).optional(),
});
export type DataDirectoryLockRecord = z.infer<typeof DataDirectoryLockRecordSchema>;
