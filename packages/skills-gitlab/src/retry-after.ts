/**
 * Reads a `Retry-After` header — delta seconds (`"5"`) or an HTTP date — as milliseconds to wait,
 * never negative and at most `maxMs`. Absent or unreadable → `fallbackMs`.
 */
export function parseRetryAfter(header: string | undefined, fallbackMs: number, maxMs: number, now: number = Date.now()): number {
  const value = header?.trim();
  let delay = fallbackMs;
  if (value && /^\d+(\.\d+)?$/.test(value)) delay = Number(value) * 1000;
  else if (value) {
    const date = Date.parse(value);
    if (!Number.isNaN(date)) delay = date - now;
  }
  return Math.min(Math.max(delay, 0), maxMs);
}
