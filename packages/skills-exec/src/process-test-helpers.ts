import { readFileSync } from 'node:fs';

/**
 * Shell code that waits (at most 10 s, so a failed test leaves nothing running for long) until
 * `go` exists; it succeeds only if `go` appeared.
 */
export function awaitGo(go: string): string {
  return `n=0; until [ -e ${go} ] || [ $n -ge 100 ]; do sleep 0.1; n=$((n+1)); done; [ -e ${go} ]`;
}

/** Whether a process is still running (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZXx]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}
