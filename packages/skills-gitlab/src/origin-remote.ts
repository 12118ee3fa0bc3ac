import { runProcess } from '@nexus/process';
import { type GitRemote, parseRemoteUrl } from './git-remote.js';

const REMOTE_TIMEOUT_MS = 5_000;

/**
 * The parsed `origin` remote of the git repository at `cwd`, or `undefined` when there is none
 * (not a repository, no origin, git missing, or git took longer than 5 s).
 */
export async function readOriginRemote(cwd: string, signal?: AbortSignal): Promise<GitRemote | undefined> {
  try {
    const result = await runProcess('git', ['remote', 'get-url', 'origin'], {
      cwd,
      timeoutMs: REMOTE_TIMEOUT_MS,
      env: { GIT_TERMINAL_PROMPT: '0' },
      ...(signal ? { signal } : {}),
    });
    return result.exitCode === 0 ? parseRemoteUrl(result.stdout) : undefined;
  } catch {
    return undefined;
  }
}
