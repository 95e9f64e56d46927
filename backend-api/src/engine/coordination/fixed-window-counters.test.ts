import { describe, expect, it } from 'vitest';
import { FixedWindowCounters } from './fixed-window-counters.js';

function manualClock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('FixedWindowCounters', () => {
  it('reports the time left in the window as it passes', () => {
    const clock = manualClock();
    const counters = new FixedWindowCounters(clock.now);
    const policy = { points: 2, durationMs: 1_000 };
    expect(counters.consume('k', policy, 1).resetMs).toBe(1_000);
    clock.advance(250);
    expect(counters.consume('k', policy, 1).resetMs).toBe(750);
  });

  it('rounds a fractional time left up, so a caller never retries early', () => {
    const clock = manualClock(0.4);
    const counters = new FixedWindowCounters(clock.now);
    counters.consume('k', { points: 1, durationMs: 10 }, 1);
    clock.advance(0.5);
    expect(counters.consume('k', { points: 1, durationMs: 10 }, 1).resetMs).toBe(10);
  });

  it('forgets ended windows on sweep and keeps open ones', () => {
    const clock = manualClock();
    const counters = new FixedWindowCounters(clock.now);
    counters.consume('short', { points: 1, durationMs: 100 }, 1);
    counters.consume('long', { points: 1, durationMs: 1_000 }, 1);
    clock.advance(100);
    counters.sweep();
    expect(counters.size).toBe(1);
    expect(counters.consume('long', { points: 1, durationMs: 1_000 }, 1).allowed).toBe(false);
  });

  it('counts under the new shape when a policy object is changed after use', () => {
    const counters = new FixedWindowCounters(manualClock().now);
    const policy = { points: 1, durationMs: 1_000 };
    counters.consume('k', policy, 1);
    expect(counters.consume('k', policy, 1).allowed).toBe(false);
    policy.points = 2;
    expect(counters.consume('k', policy, 1)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('shares a counter between equal policies given as different objects', () => {
    const counters = new FixedWindowCounters(manualClock().now);
    counters.consume('k', { points: 1, durationMs: 1_000 }, 1);
    expect(counters.consume('k', { points: 1, durationMs: 1_000 }, 1).allowed).toBe(false);
  });
});
