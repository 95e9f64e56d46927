import { When } from '../ui/dates';
import type { TokenUsage } from '../api/budgets.client';

const numberFormat = new Intl.NumberFormat();

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
        Resets <When iso={usage.resetsAt} />.
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
        <DailyChart id={chartId} period={period} days={days} byDay={byDay} peak={peak} />
        <figcaption className="muted">Tokens used per day, day 1 to {days} (UTC).</figcaption>
      </figure>
    </div>
  );
}

/** A bar chart of daily use with both axes: days along the bottom, tokens up the side, each bar's value above it. */
function DailyChart({
  id,
  period,
  days,
  byDay,
  peak,
}: {
  id: string;
  period: string;
  days: number;
  byDay: Map<number, number>;
  peak: number;
}) {
  // Plot area inside margins that hold the axis labels (viewBox units; the SVG scales as a whole).
  const left = 44;
  const right = 8;
  const top = 16;
  const plotWidth = 320;
  const plotHeight = 120;
  const bottom = top + plotHeight;
  const slot = plotWidth / days;
  const ticks = [0, Math.round(peak / 2), peak];
  const dayTicks = [1, 8, 15, 22, days];
  const values = [...byDay.entries()].filter(([, value]) => value > 0);
  return (
    <svg
      className="usage-chart"
      viewBox={`0 0 ${left + plotWidth + right} ${bottom + 28}`}
      role="img"
      aria-labelledby={id}
    >
      <title id={id}>
        {`Tokens per day in ${period}: ${values.length ? values.map(([day, value]) => `day ${day}: ${numberFormat.format(value)}`).join(', ') : 'no use yet'}`}
      </title>
      <line className="usage-chart__axis" x1={left} x2={left} y1={top} y2={bottom} />
      <line className="usage-chart__axis" x1={left} x2={left + plotWidth} y1={bottom} y2={bottom} />
      {ticks.map((tick) => {
        const y = bottom - (tick / peak) * plotHeight;
        return (
          <g key={`y${tick}`}>
            <line className="usage-chart__grid" x1={left} x2={left + plotWidth} y1={y} y2={y} />
            <text className="usage-chart__label" x={left - 4} y={y + 3} textAnchor="end">
              {numberFormat.format(tick)}
            </text>
          </g>
        );
      })}
      {dayTicks.map((day) => (
        <text
          key={`x${day}`}
          className="usage-chart__label"
          x={left + (day - 0.5) * slot}
          y={bottom + 12}
          textAnchor="middle"
        >
          {day}
        </text>
      ))}
      <text className="usage-chart__label" x={left + plotWidth / 2} y={bottom + 25} textAnchor="middle">
        Day of the month
      </text>
      {Array.from({ length: days }, (_, index) => {
        const value = byDay.get(index + 1) ?? 0;
        const barHeight = (value / peak) * plotHeight;
        const x = left + index * slot;
        return (
          <g key={index}>
            <rect
              className="usage-chart__bar"
              x={x + slot * 0.15}
              width={slot * 0.7}
              y={bottom - barHeight}
              height={barHeight}
            />
            {value > 0 ? (
              <text className="usage-chart__value" x={x + slot / 2} y={bottom - barHeight - 3} textAnchor="middle">
                {numberFormat.format(value)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
