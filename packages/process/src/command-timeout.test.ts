import { describe, expect, it } from 'vitest';
import { clampTimeoutSeconds, timeoutParameter } from './index.js';

describe('clampTimeoutSeconds', () => {
  it('fills in 30 s and clamps to 1–300 s', () => {
    expect([undefined, 0, -5, 0.2, 1, 45, 300, 301, 1e9].map(clampTimeoutSeconds)).toEqual([30, 1, 1, 1, 1, 45, 300, 300, 300]);
    expect(timeoutParameter).toMatchObject({ type: 'integer', default: 30 });
  });

  it.each([['soon'], [null], [Number.NaN], [Number.POSITIVE_INFINITY], [{}]])('refuses %j naming `timeout`', (value) => {
    expect(() => clampTimeoutSeconds(value)).toThrow(expect.objectContaining({ kind: 'invalid_input', parameter: 'timeout' }));
  });
});
