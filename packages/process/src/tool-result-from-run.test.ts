import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatRunOutput, runProcess, toolResultFromRun } from './index.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir();
});
afterEach(async () => {
  await dir.cleanup();
});

const run = (script: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
  runProcess('sh', ['-c', script], { cwd: dir.path, ...options });

describe('toolResultFromRun', () => {
  it('succeeds for exit code 0 with stdout, then stderr under a heading, and the run in data', async () => {
    const result = toolResultFromRun('tool', await run('echo out; echo err >&2'));
    expect(result).toMatchObject({ success: true, output: 'out\n[stderr]\nerr', data: { stdout: 'out\n', stderr: 'err\n', exitCode: 0 } });
    expect(formatRunOutput(await run('true'))).toBe('(no output)');
  });

  it('fails with the output and the exit code for a non-zero exit', async () => {
    const result = toolResultFromRun('tool', await run('echo partial; exit 4'));
    expect(result).toMatchObject({
      kind: 'execution_failed',
      error: 'tool: the command failed.\npartial\n[exit code 4]',
      data: { exitCode: 4 },
    });
  });

  it('says when the command was ended by a signal, stopped at its time limit or cancelled', async () => {
    expect(formatRunOutput(await run('kill -KILL $$'))).toBe('[ended by SIGKILL]');
    const slow = toolResultFromRun('tool', await run('sleep 30', { timeoutMs: 200 }), 1);
    expect(slow).toMatchObject({ kind: 'timeout', error: 'tool: the command did not finish within 1 s and was stopped.\n(no output)' });
    const cancelled = toolResultFromRun('tool', await run('sleep 30', { signal: AbortSignal.timeout(200) }));
    expect(cancelled).toMatchObject({ kind: 'cancelled', data: { cancelled: true } });
  });
});
