import { readdirSync, readFileSync } from 'node:fs';

/**
 * Shell code that waits until `path` exists and succeeds only if it appeared — for tests that start
 * processes which must be ended before they get to act (`sh -c "${waitForFileScript(go)} && touch late"`).
 * It gives up after 10 s, so a failed test leaves nothing running for long.
 */
export function waitForFileScript(path: string): string {
  return `n=0; until [ -e ${path} ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n+1)); done; [ -e ${path} ]`;
}

/** Whether a process is still running, read from `/proc` (Linux); a zombie waiting to be reaped counts as gone. */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZXx]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/**
 * Pids of the live processes (Linux `/proc`) one of whose arguments is exactly `argument` — for
 * tests that start a process with a unique argument (`sleep 600.4711`) and check it is gone.
 */
export function processesWithArgument(argument: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes(argument) && isProcessAlive(pid);
      } catch {
        return false;
      }
    });
}
