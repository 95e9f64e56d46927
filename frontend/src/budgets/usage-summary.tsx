import type { TokenUsage } from '../api/budgets.client';

const numberFormat = new Intl.NumberFormat('en');

/** Days in the UTC month `period` (`YYYY-MM`). */
function daysIn(period: string): number {
  const [year, month] = period.split('-').map(Number);
  if (!year || !month) return 30;
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const SOURCES: Record<string, string> = {
  override: 'a manual override',
  plan: 'your plan',
  profile: 'the default for organizations',
  none: 'no limit',
};

/** Consumption against the allowance (text and a meter) and a bar chart of daily use (plain SVG). */
export function UsageSummary({ usage, headingLevel = 2 }: { usage: TokenUsage; headingLevel?: 2 | 3 }) {
  const { allowance, consumedTokens, period, daily } = usage;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const days = daysIn(period);
  const byDay = new Map(daily.map((entry) => [Number(entry.day.slice(8, 10)), entry.consumedTokens]));
  const peak = Math.max(1, ...daily.map((entry) => entry.consumedTokens));
  const width = 300;
  const height = 100;
  const slot = width / days;
  const chartId = `usage-chart-${period}`;
  return (
    <div className="usage">
      <Heading className="section-title">This month ({period}, UTC)</Heading>
      <p>
        <strong>{numberFormat.format(consumedTokens)}</strong> tokens used
        {allowance.value === null ? (
          ' (no monthly limit applies).'
        ) : (
          <>
            {' '}
            of <strong>{numberFormat.format(allowance.value)}</strong> (allowance from{' '}
            {SOURCES[allowance.source] ?? allowance.source}
            {allowance.grantingProductRefs.length ? `: ${allowance.grantingProductRefs.join(', ')}` : ''}).
          </>
        )}{' '}
        Resets {new Date(usage.resetsAt).toUTCString()}.
      </p>
      {allowance.value !== null ? (
        <meter
          className="usage-meter"
          aria-label="Share of the monthly allowance used"
          min={0}
          max={Math.max(allowance.value, 1)}
          high={Math.max(allowance.value, 1) * 0.8}
          value={Math.min(consumedTokens, Math.max(allowance.value, 1))}
        />
      ) : null}
      <figure className="usage-figure">
        <svg
          className="usage-chart"
          viewBox={`0 0 ${width} ${height + 12}`}
          role="img"
          aria-labelledby={chartId}
          preserveAspectRatio="none"
        >
          <title id={chartId}>
            {`Tokens per day in ${period}: ${daily.length ? daily.map((entry) => `${entry.day.slice(8)}: ${entry.consumedTokens}`).join(', ') : 'no use yet'}`}
          </title>
          <line className="usage-chart__axis" x1={0} x2={width} y1={height} y2={height} />
          {Array.from({ length: days }, (_, index) => {
            const value = byDay.get(index + 1) ?? 0;
            const barHeight = (value / peak) * (height - 4);
            return (
              <rect
                key={index}
                className="usage-chart__bar"
                x={index * slot + slot * 0.15}
                width={slot * 0.7}
                y={height - barHeight}
                height={barHeight}
              />
            );
          })}
        </svg>
        <figcaption className="muted">Daily use, day 1 to {days} (UTC).</figcaption>
      </figure>
    </div>
  );
}
