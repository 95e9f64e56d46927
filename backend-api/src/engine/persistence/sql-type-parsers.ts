/**
 * Value normalization shared by both drivers, so callers see the same JavaScript values whether
 * PGlite or PostgreSQL answers: int8 as decimal strings (exact beyond 2^53), `date` as `YYYY-MM-DD`
 * strings (no local-time shift), `timestamp` without zone as UTC, timestamptz as `Date`, jsonb parsed.
 */

/** Type OIDs whose default parsing differs between pg and PGlite. */
export const NORMALIZED_TYPE_OIDS = {
  int8: 20,
  date: 1082,
  timestamp: 1114,
} as const;

/** Keeps the text form: int8 (PGlite would lose precision as a number) and date (pg would shift it). */
function keepText(text: string): string {
  return text;
}

/** Reads a zone-less timestamp as UTC, which is what PGlite does; pg would read it as local time. */
function timestampAsUtc(text: string): Date | string {
  if (!/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text)) return text; // infinity, BC dates
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/** Text-format parsers, by type OID, that both database wrappers install. */
export const NORMALIZED_TEXT_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [NORMALIZED_TYPE_OIDS.int8]: keepText,
  [NORMALIZED_TYPE_OIDS.date]: keepText,
  [NORMALIZED_TYPE_OIDS.timestamp]: timestampAsUtc,
};

/** Commands whose row count is a number of written rows; anything else reports 0 affected rows. */
const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** `affectedRows` as PGlite reports it: the row count of a write, 0 for reads and DDL. */
export function affectedRowsOf(command: string | null | undefined, rowCount: number | null | undefined): number {
  return command !== null && command !== undefined && WRITE_COMMANDS.has(command) ? (rowCount ?? 0) : 0;
}
