import { describe, expect, it } from 'vitest';
import { utcMonthOf } from './budget-period.js';

describe('utcMonthOf', () => {
  it('puts the last millisecond of a month and the first of the next in different months', () => {
    expect(utcMonthOf(new Date('2026-01-31T23:59:59.999Z'))).toEqual({
      period: '2026-01',
      startDate: '2026-01-01',
      startsAt: new Date('2026-01-01T00:00:00.000Z'),
      resetsAt: new Date('2026-02-01T00:00:00.000Z'),
    });
    expect(utcMonthOf(new Date('2026-02-01T00:00:00.000Z')).period).toBe('2026-02');
  });

  it('rolls December over to January and knows leap years', () => {
    expect(utcMonthOf(new Date('2026-12-31T23:59:59.999Z')).resetsAt.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(utcMonthOf(new Date('2028-02-29T12:00:00Z')).resetsAt.toISOString()).toBe('2028-03-01T00:00:00.000Z');
  });

  it('uses UTC, not the offset the instant was written in', () => {
    // 2026-03-01T01:30+02:00 is still February in UTC.
    expect(utcMonthOf(new Date('2026-03-01T01:30:00+02:00')).period).toBe('2026-02');
  });

  it('refuses an invalid date', () => {
    expect(() => utcMonthOf(new Date('nope'))).toThrow(RangeError);
  });
});
