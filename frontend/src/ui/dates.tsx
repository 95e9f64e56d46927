/**
 * The one way pages show dates: in the person's locale and time zone, medium date, short time. A `<time>` keeps the
 * exact instant for machines and assistive technology.
 */
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function parsed(iso: string): Date | null {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** A date as text (`4 Dec 2026`), or `null` for a value that is not a date. */
export function dateText(iso: unknown): string | null {
  const at = typeof iso === 'string' ? parsed(iso) : null;
  return at ? DATE.format(at) : null;
}

/** A date and time as text (`4 Dec 2026, 18:40`), or `null` for a value that is not a date. */
export function dateTimeText(iso: unknown): string | null {
  const at = typeof iso === 'string' ? parsed(iso) : null;
  return at ? DATE_TIME.format(at) : null;
}

/** A `<time>` element for an instant, shown with its time of day unless `dateOnly`. */
export function When({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  const text = dateOnly ? dateText(iso) : dateTimeText(iso);
  return text ? <time dateTime={iso}>{text}</time> : <>{iso}</>;
}
