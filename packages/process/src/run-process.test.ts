import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidOptionError, NexusError, NotFoundError } from '@nexus/core';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RUN_TAG_VARIABLE, runProcess } from './index.js';
import { isProcessAlive, waitForFileScript } from './testing.js';

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir();
});
afterEach(async () => {
  await dir.cleanup();
});

async function readPids(path: string): Promise<number[]> {
  const text = existsSync(path) ? await readFile(path, 'utf8') : '';
  return text.split('\n').filter(Boolean).map(Number);
}

describe('runProcess', () => {
  it('captures stdout, stderr and a non-zero exit code without rejecting', async () => {
    const result = await runProcess('sh', ['-c', 'echo out; echo err >&2; exit 3'], { cwd: dir.path });
    expect(result).toMatchObject({
      stdout: 'out\n',
      stderr: 'err\n',
      exitCode: 3,
      signal: null,
      timedOut: false,
      cancelled: false,
      truncated: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('passes arguments verbatim, without a shell', async () => {
    const tricky = ['$(touch pwned)', '; rm -rf /', '`id`', '*', 'a\'b"c', 'line\nbreak'];
    const result = await runProcess('printf', ['%s\\0', ...tricky], { cwd: dir.path });
    expect(result.stdout.split('\0').slice(0, -1)).toEqual(tricky);
    expect(existsSync(dir.join('pwned'))).toBe(false);
  });

  it('runs in the given working directory', async () => {
    const result = await runProcess('pwd', [], { cwd: dir.path });
    expect(result.stdout.trim()).toBe(dir.path);
  });

  it('rejects with not_found naming the program when it does not exist', async () => {
    const attempt = runProcess('nexus-no-such-program', ['x'], { cwd: dir.path });
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('nexus-no-such-program') });
  });

  it('rejects with not_found when the working directory is missing', async () => {
    await expect(runProcess('true', [], { cwd: dir.join('missing') })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringContaining('working directory'),
    });
  });

  it('rejects a program that is not executable', async () => {
    await writeFile(dir.join('script'), '#!/bin/sh\necho hi\n');
    await chmod(dir.join('script'), 0o644);
    const attempt = runProcess(dir.join('script'), [], { cwd: dir.path });
    await expect(attempt).rejects.toSatisfy(
      (error) => NexusError.isInstance(error) && error.kind === 'execution_failed' && /permission denied/.test(error.message),
    );
  });

  it('writes input to stdin and closes it; without input stdin is empty', async () => {
    const withInput = await runProcess('cat', [], { cwd: dir.path, input: 'hello\nworld' });
    expect(withInput.stdout).toBe('hello\nworld');
    const bytes = await runProcess('wc', ['-c'], { cwd: dir.path, input: new Uint8Array([1, 2, 3]) });
    expect(bytes.stdout.trim()).toBe('3');
    const without = await runProcess('cat', [], { cwd: dir.path, timeoutMs: 20_000 });
    expect(without).toMatchObject({ stdout: '', exitCode: 0, timedOut: false });
  });

  it('validates its options with InvalidOptionErrors naming them', async () => {
    await expect(runProcess('true', [], { cwd: 'relative' })).rejects.toThrow('Expected `cwd` to be an absolute path, got "relative".');
    await expect(runProcess('true', [], { cwd: dir.path, timeoutMs: -5 })).rejects.toThrow(
      'Expected `timeoutMs` to be a positive number, got -5.',
    );
    const invalid = [
      { cwd: 'relative' },
      { cwd: dir.path, timeoutMs: -5 },
      { cwd: dir.path, maxOutputBytes: Number.NaN },
      { cwd: dir.path, killGraceMs: '2s' as unknown as number },
    ];
    const errors = await Promise.all(invalid.map((options) => runProcess('true', [], options).catch((error: unknown) => error)));
    expect(errors.map((error) => InvalidOptionError.isInstance(error) && error.option)).toEqual([
      'cwd',
      'timeoutMs',
      'maxOutputBytes',
      'killGraceMs',
    ]);
    expect(errors[3]).toMatchObject({ kind: 'invalid_input', message: 'Expected `killGraceMs` to be a positive number, got "2s".' });
  });

  describe('environment', () => {
    const planted = {
      OPENAI_API_KEY: 'sk-planted-openai',
      GITHUB_TOKEN: 'ghp_planted_token',
      AWS_SECRET_ACCESS_KEY: 'planted-aws-secret',
      DATABASE_PASSWORD: 'planted-db-password',
      GITLAB_PRIVATE_TOKEN: 'glpat-planted',
      NPM_AUTH: 'planted-npm-auth',
      MY_INNOCENT_LOOKING_VAR: 'planted-unlisted',
      GIT_DIR: '/planted/git/dir',
    };
    beforeEach(() => {
      Object.assign(process.env, planted);
    });
    afterEach(() => {
      for (const name of Object.keys(planted)) delete process.env[name];
    });

    it('never hands secrets to the child, neither in env nor in /proc/self/environ', async () => {
      const result = await runProcess('sh', ['-c', 'env; echo ---; cat /proc/self/environ | tr "\\0" "\\n"'], {
        cwd: dir.path,
        env: { EXTRA_SETTING: 'visible', SNEAKY_API_TOKEN: 'planted-via-options' },
      });
      expect(result.exitCode).toBe(0);
      for (const secret of [...Object.values(planted), 'planted-via-options']) expect(result.stdout).not.toContain(secret);
      expect(result.stdout).toContain('EXTRA_SETTING=visible');
      expect(result.stdout).toContain('PATH=');
      expect(result.stdout).toContain(`${RUN_TAG_VARIABLE}=`);
    });
  });

  describe('timeouts, cancellation and process trees', () => {
    it('ends a command that runs past its time limit', async () => {
      const result = await runProcess('sleep', ['30'], { cwd: dir.path, timeoutMs: 300 });
      expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: 'SIGTERM' });
    });

    it('kills the whole tree on timeout: background, setsid, nohup, double-forked and TERM-ignoring children', async () => {
      const pids = dir.join('pids');
      const go = dir.join('go');
      // Each child records its pid, then waits for the test's go signal before writing its sentinel.
      const child = (name: string) => `echo $$ >> ${pids}; ${waitForFileScript(go)} && echo late > ${dir.join(`sentinel-${name}`)}`;
      const script = [
        `echo $$ >> ${pids}`,
        `sh -c '${child('background')}' &`,
        `setsid sh -c '${child('setsid')}' &`,
        `nohup sh -c '${child('nohup')}' > /dev/null 2>&1 &`,
        `(setsid sh -c '${child('double-fork')}' > /dev/null 2>&1 < /dev/null &)`,
        `setsid -f sh -c '${child('setsid-fork')}' > /dev/null 2>&1 < /dev/null`,
        `sh -c 'trap "" TERM; ${child('trap')}' &`,
        `trap '' TERM`,
        `while [ "$(wc -l < ${pids})" -lt 7 ]; do sleep 0.05; done`,
        'sleep 60',
      ].join('\n');
      const result = await runProcess('sh', ['-c', script], { cwd: dir.path, timeoutMs: 2_000, killGraceMs: 500 });
      expect(result.timedOut).toBe(true);
      const recorded = await readPids(pids);
      expect(recorded.length).toBe(7);
      expect(recorded.filter(isProcessAlive)).toEqual([]);
      await writeFile(go, '');
      await delay(1_000);
      const sentinels = ['background', 'setsid', 'nohup', 'double-fork', 'setsid-fork', 'trap'].filter((name) =>
        existsSync(dir.join(`sentinel-${name}`)),
      );
      expect(sentinels).toEqual([]);
    });

    it('ends processes a finished command leaves behind', async () => {
      const pids = dir.join('pids');
      const go = dir.join('go');
      const script = `setsid sh -c 'echo $$ >> ${pids}; ${waitForFileScript(go)} && echo late > ${dir.join('sentinel')}' > /dev/null 2>&1 < /dev/null & while [ ! -s ${pids} ]; do sleep 0.05; done; echo started`;
      const result = await runProcess('sh', ['-c', script], { cwd: dir.path, killGraceMs: 500 });
      expect(result).toMatchObject({ stdout: 'started\n', exitCode: 0, timedOut: false });
      const recorded = await readPids(pids);
      expect(recorded.length).toBe(1);
      expect(recorded.filter(isProcessAlive)).toEqual([]);
      await writeFile(go, '');
      await delay(1_000);
      expect(existsSync(dir.join('sentinel'))).toBe(false);
    });

    it('ends the tree when the signal aborts', async () => {
      const controller = new AbortController();
      const pidFile = dir.join('pid');
      const pending = runProcess('sh', ['-c', `trap '' TERM; sleep 60 & echo $! > ${pidFile}; wait`], {
        cwd: dir.path,
        signal: controller.signal,
        killGraceMs: 300,
      });
      while (!existsSync(pidFile) || (await readPids(pidFile)).length === 0) await delay(20);
      controller.abort();
      const result = await pending;
      expect(result).toMatchObject({ cancelled: true, timedOut: false, exitCode: null, signal: 'SIGKILL' });
      const [pid] = await readPids(pidFile);
      expect(isProcessAlive(pid as number)).toBe(false);
    });

    it('does not start anything when the signal is already aborted', async () => {
      const result = await runProcess('sh', ['-c', `touch ${dir.join('ran')}`], { cwd: dir.path, signal: AbortSignal.abort() });
      expect(result).toMatchObject({ cancelled: true, exitCode: null, stdout: '' });
      expect(existsSync(dir.join('ran'))).toBe(false);
    });

    it('leaves concurrent runs alone', async () => {
      const slow = runProcess('sh', ['-c', 'sleep 1.5; echo survived'], { cwd: dir.path });
      const killed = await runProcess('sleep', ['30'], { cwd: dir.path, timeoutMs: 200 });
      expect(killed.timedOut).toBe(true);
      expect((await slow).stdout).toBe('survived\n');
    });
  });

  describe('output limits', () => {
    it('caps an endless flood with a marker and keeps memory bounded', async () => {
      const before = process.memoryUsage().rss;
      const result = await runProcess('yes', ['flood'], { cwd: dir.path, timeoutMs: 3_000, maxOutputBytes: 64 * 1024 });
      const grown = process.memoryUsage().rss - before;
      expect(result).toMatchObject({ timedOut: true, truncated: true });
      expect(result.stdout.startsWith('flood\nflood\n')).toBe(true);
      expect(result.stdout).toMatch(/\n\[output truncated: showing the first 64\.0 KiB of [\d.]+ [KMG]iB\]$/);
      expect(result.stdout.length).toBeLessThan(64 * 1024 + 200);
      expect(grown).toBeLessThan(256 * 1024 * 1024);
    });

    it('caps each stream separately and lets a large finite output finish', async () => {
      const result = await runProcess('sh', ['-c', 'head -c 3000000 /dev/zero | tr "\\0" a; echo short >&2'], {
        cwd: dir.path,
        maxOutputBytes: 1000,
      });
      expect(result).toMatchObject({ exitCode: 0, truncated: true, stderr: 'short\n' });
      expect(result.stdout).toBe(`${'a'.repeat(1000)}\n[output truncated: showing the first 1000 B of 2.9 MiB]`);
    });

    it('never cuts a UTF-8 character in half', async () => {
      const result = await runProcess('printf', ['%s', 'é'.repeat(100)], { cwd: dir.path, maxOutputBytes: 51 });
      expect(result.stdout).toBe(`${'é'.repeat(25)}\n[output truncated: showing the first 50 B of 200 B]`);
    });
  });
});
