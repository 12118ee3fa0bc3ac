import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves once `condition` holds, checking every 20 ms; throws "Gave up waiting for <what>" after
 * `timeoutMs` (default 30 s, generous for a loaded machine). For tests that wait on real processes
 * and servers instead of sleeping a fixed time.
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${typeof what === 'string' ? what : what()}.`);
    await delay(20);
  }
}
