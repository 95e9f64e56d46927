/** A UTC calendar month: the unit token consumption is counted in. */
export interface UtcMonthPeriod {
  /** `YYYY-MM`. */
  period: string;
  /** The first day, `YYYY-MM-01` (the stored key). */
  startDate: string;
  /** The first instant of the month. */
  startsAt: Date;
  /** The first instant of the next month. */
  resetsAt: Date;
}

/**
 * The UTC calendar month containing `at`, whatever the server's time zone.
 *
 * @example
 * utcMonthOf(new Date('2026-01-31T23:59:59.999Z')).period; // '2026-01'
 * utcMonthOf(new Date('2026-02-01T00:00:00.000Z')).period; // '2026-02'
 */
export function utcMonthOf(at: Date): UtcMonthPeriod {
  const time = at.getTime();
  if (Number.isNaN(time)) throw new RangeError('utcMonthOf needs a valid date.');
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const startsAt = new Date(Date.UTC(year, month, 1));
  const resetsAt = new Date(Date.UTC(year, month + 1, 1));
  const period = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`;
  return { period, startDate: `${period}-01`, startsAt, resetsAt };
}
