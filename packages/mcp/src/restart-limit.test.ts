import { describe, expect, it } from 'vitest';
import { RestartLimit } from './restart-limit.js';

describe('RestartLimit', () => {
  it('allows 3 restarts in 5 minutes, and more once the oldest is 5 minutes old', () => {
    let now = 1_000_000;
    const limit = new RestartLimit({ now: () => now });
    expect([limit.take(), limit.take(), limit.take(), limit.take()]).toEqual([true, true, true, false]);
    now += 5 * 60_000 - 1;
    expect(limit.take()).toBe(false);
    now += 1;
    expect([limit.take(), limit.take(), limit.take(), limit.take()]).toEqual([true, true, true, false]);
  });

  it('spreads restarts over a sliding window', () => {
    let now = 0;
    const limit = new RestartLimit({ maxRestarts: 2, windowMs: 100, now: () => now });
    expect(limit.take()).toBe(true);
    now = 60;
    expect(limit.take()).toBe(true);
    now = 99;
    expect(limit.take()).toBe(false);
    now = 100;
    expect(limit.take()).toBe(true);
    expect(limit.take()).toBe(false);
  });
});
