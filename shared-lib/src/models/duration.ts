/** Units of a {@link Duration}. */
export enum DurationUnit {
  SECONDS = 'SECONDS',
  MINUTES = 'MINUTES',
  HOURS = 'HOURS',
  DAYS = 'DAYS',
}

/** A length of time as declarations write it, e.g. `{ value: 15, unit: DurationUnit.MINUTES }`. */
export interface Duration {
  value: number;
  unit: DurationUnit;
}

const MILLISECONDS_PER_UNIT: Record<DurationUnit, number> = {
  [DurationUnit.SECONDS]: 1_000,
  [DurationUnit.MINUTES]: 60_000,
  [DurationUnit.HOURS]: 3_600_000,
  [DurationUnit.DAYS]: 86_400_000,
};

/**
 * The duration in milliseconds; refuses a value that is not a positive finite number (a zero or negative
 * lifetime would make a token that is expired when issued).
 *
 * @example
 * durationToMilliseconds({ value: 5, unit: DurationUnit.MINUTES }); // 300000
 */
export function durationToMilliseconds(duration: Duration): number {
  if (!Number.isFinite(duration.value) || duration.value <= 0)
    throw new RangeError('A duration must be a positive finite number.');
  return duration.value * MILLISECONDS_PER_UNIT[duration.unit];
}
