import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { InvalidOptionError, NexusError, NotFoundError } from '@nexus/core';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from './index.js';
import { bubblewrapSkipReason, isProcessAlive, processesWithArgument, type SandboxTargets, startSandboxTargets } from './testing.js';

const skipReason = await bubblewrapSkipReason();

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({
    work: { 'inside.txt': 'inside\n' },
    extra: {},
    'sibling.txt': 'sibling\n',
    blocked: { 'secret.txt': 'blocked directory content\n' },
    'blocked-file.txt': 'blocked file content\n',
  });
});
afterEach(async () => {
  await dir.cleanup();
});

describe.skipIf(skipReason !== '')(`runProcess with a bubblewrap sandbox${skipReason}`, () => {
  let targets: SandboxTargets;
  beforeAll(async () => {
    targets = await startSandboxTargets();
  });
  afterAll(() => targets.close());

  it('runs the command in a new PID namespace: no host process, and so no host environment, is visible', async () => {
    const script = [
      `cat /proc/${targets.hostPid}/environ`,
      'cat /proc/$PPID/environ',
      'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < $f; done',
      'echo; echo "pids: $(ls -d /proc/[0-9]* | wc -l)"',
    ].join('; ');
    const result = await runProcess('sh', ['-c', script], { cwd: dir.join('work'), sandbox: {} });
    expect(result.sandboxed).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(targets.secret);
    expect(Number(/pids: (\d+)/.exec(result.stdout)?.[1])).toBeLessThan(10);
    // What the command can read as PID 1 is bubblewrap, started with the sanitised environment.
    const init = await runProcess('sh', ['-c', 'tr "\\0" "\\n" < /proc/1/environ'], { cwd: dir.join('work'), sandbox: {} });
    expect(init.stdout).toContain('NEXUS_RUN_ID=');
    expect(init.stdout).toContain('PATH=');
  });

  it('keeps the file system read-only except the working directory, the write paths and a private /tmp', async () => {
    const tmpName = `/tmp/nexus-private-${randomUUID()}`;
    const script = [
      'echo written > inside.txt',
      `echo written > ${dir.join('extra', 'new.txt')}`,
      `echo written > ${dir.join('sibling.txt')}`,
      `echo written > ${join(targets.outside, 'escaped.txt')}`,
      `echo written > ${tmpName} && cat ${tmpName}`,
      'true',
    ].join('; ');
    const result = await runProcess('sh', ['-c', script], {
      cwd: dir.join('work'),
      sandbox: { writePaths: [dir.join('work'), dir.join('extra')] },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('written\n');
    expect(result.stderr).toContain('Read-only file system');
    expect(readFileSync(dir.join('work', 'inside.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(dir.join('extra', 'new.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(dir.join('sibling.txt'), 'utf8')).toBe('sibling\n');
    expect(existsSync(join(targets.outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(tmpName)).toBe(false);
  });

  it('makes the working directory writable by default and everything writable with writePaths: null', async () => {
    const byDefault = await runProcess('sh', ['-c', `touch made-here; touch ${join(targets.outside, 'refused')}`], {
      cwd: dir.join('work'),
      sandbox: {},
    });
    expect(byDefault.stderr).toContain('Read-only file system');
    expect(existsSync(dir.join('work', 'made-here'))).toBe(true);
    const everywhere = await runProcess('touch', [join(targets.outside, 'allowed')], {
      cwd: dir.join('work'),
      sandbox: { writePaths: null },
    });
    expect(everywhere.exitCode).toBe(0);
    expect(existsSync(join(targets.outside, 'allowed'))).toBe(true);
  });

  it('hides blocked paths, also inside the write paths', async () => {
    const script = `cat inside.txt; cat ${dir.join('blocked', 'secret.txt')}; ls ${dir.join('blocked')}; cat ${dir.join('blocked-file.txt')}; echo x > ${dir.join('blocked', 'new.txt')}; true`;
    const result = await runProcess('sh', ['-c', script], {
      cwd: dir.join('work'),
      sandbox: { writePaths: [dir.path], blockedPaths: [dir.join('blocked'), dir.join('blocked-file.txt'), dir.join('missing')] },
    });
    expect(result.stdout + result.stderr).not.toContain('content');
    expect(result).toMatchObject({ exitCode: 0, stdout: 'inside\n' });
    expect(existsSync(dir.join('blocked', 'new.txt'))).toBe(false);
    expect(readFileSync(dir.join('blocked-file.txt'), 'utf8')).toBe('blocked file content\n');
  });

  it('shows readPaths read-only, under /tmp too; write paths inside them stay writable and blocked paths hidden', async () => {
    const script = [
      `cat ${dir.join('sibling.txt')}`,
      `echo written > ${dir.join('sibling.txt')}`,
      'echo written > inside.txt',
      `cat ${dir.join('blocked', 'secret.txt')}`,
      'true',
    ].join('; ');
    const result = await runProcess('sh', ['-c', script], {
      cwd: dir.join('work'),
      sandbox: { readPaths: [dir.path, dir.join('missing')], blockedPaths: [dir.join('blocked')] },
    });
    expect(dir.path.startsWith('/tmp/')).toBe(true);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'sibling\n' });
    expect(result.stderr).toContain('Read-only file system');
    expect(result.stderr).not.toContain('content');
    expect(readFileSync(dir.join('sibling.txt'), 'utf8')).toBe('sibling\n');
    expect(readFileSync(dir.join('work', 'inside.txt'), 'utf8')).toBe('written\n');
  });

  it('keeps readPaths writable with writePaths: null, as everything else', async () => {
    const script = `touch ${join(targets.outside, 'made')} ${dir.join('made')}`;
    const result = await runProcess('sh', ['-c', script], {
      cwd: dir.join('work'),
      sandbox: { writePaths: null, readPaths: [targets.outside, dir.path] },
    });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(existsSync(join(targets.outside, 'made'))).toBe(true);
    expect(existsSync(dir.join('made'))).toBe(true);
  });

  it('ends what a command left behind in a new session with a scrubbed environment, as the call returns', async () => {
    const token = `600.${Date.now() % 1_000_000}`;
    const script = `env -i setsid sleep ${token} & while ! grep -q ${token} /proc/$!/cmdline 2>/dev/null; do sleep 0.01; done; echo started`;
    const result = await runProcess('sh', ['-c', script], { cwd: dir.join('work'), sandbox: {} });
    expect(result).toMatchObject({ stdout: 'started\n', exitCode: 0 });
    expect(processesWithArgument(token).filter(isProcessAlive)).toEqual([]);
  });

  it('stops the whole tree at the time limit', async () => {
    const token = `600.${(Date.now() + 1) % 1_000_000}`;
    const result = await runProcess('sh', ['-c', `trap "" TERM; env -i setsid sleep ${token} & sleep 600`], {
      cwd: dir.join('work'),
      timeoutMs: 500,
      killGraceMs: 200,
      sandbox: {},
    });
    expect(result).toMatchObject({ timedOut: true, sandboxed: true });
    expect(processesWithArgument(token).filter(isProcessAlive)).toEqual([]);
  });

  describe('network', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_request, response) => response.end('reached')).listen(0, '127.0.0.1');
      await once(server, 'listening');
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('is shared by default and cut off with network: false (its own loopback only)', async () => {
      const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -n 1 <&3`;
      const shared = await runProcess('bash', ['-c', connect], { cwd: dir.join('work'), sandbox: {} });
      expect(shared.stdout).toBe('reached');
      const cut = await runProcess('bash', ['-c', connect], { cwd: dir.join('work'), sandbox: { network: false } });
      expect(cut.exitCode).not.toBe(0);
      expect(cut.stdout).toBe('');
    });
  });

  it('reports a program missing inside the sandbox as not_found naming it, and a missing working directory as such', async () => {
    const missing = runProcess('nexus-no-such-program', ['x'], { cwd: dir.join('work'), sandbox: {} });
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow('Program "nexus-no-such-program" was not found');
    await expect(runProcess('true', [], { cwd: dir.join('gone'), sandbox: {} })).rejects.toThrow('working directory');
  });

  it('passes arguments, stdin, exit codes and the private TMPDIR through', async () => {
    const result = await runProcess('sh', ['-c', 'cat; printf "|%s|%s" "$1" "$TMPDIR"; exit 4', 'sh', 'a b'], {
      cwd: dir.join('work'),
      input: 'in',
      sandbox: {},
    });
    expect(result).toMatchObject({ stdout: 'in|a b|/tmp', exitCode: 4, sandboxed: true });
  });
});

describe('runProcess sandbox options', () => {
  it('runs unsandboxed without the option and says so', async () => {
    expect(await runProcess('true', [], { cwd: dir.path })).toMatchObject({ exitCode: 0, sandboxed: false });
  });

  it('checks the sandbox options with InvalidOptionErrors naming them', async () => {
    const invalid = [
      { sandbox: 'yes' },
      { sandbox: { writePaths: 'work' } },
      { sandbox: { writePaths: ['relative'] } },
      { sandbox: { blockedPaths: [7] } },
      { sandbox: { readPaths: ['relative'] } },
      { sandbox: { network: 'off' } },
    ];
    const errors = await Promise.all(
      invalid.map((options) => runProcess('true', [], { cwd: dir.path, ...(options as object) }).catch((error: unknown) => error)),
    );
    expect(errors.map((error) => InvalidOptionError.isInstance(error) && error.option)).toEqual([
      'sandbox',
      'sandbox.writePaths',
      'sandbox.writePaths',
      'sandbox.blockedPaths',
      'sandbox.readPaths',
      'sandbox.network',
    ]);
    expect(errors[5]).toMatchObject({ message: 'Expected `sandbox.network` to be a boolean, got "off".' });
  });

  it('refuses to run, running nothing, when a sandbox is asked for and bubblewrap is not there', async () => {
    const marker = dir.join('ran');
    const attempt = runProcess('/bin/sh', ['-c', `touch ${marker}`], { cwd: dir.path, env: { PATH: dir.path }, sandbox: {} });
    await expect(attempt).rejects.toSatisfy(
      (error) =>
        NexusError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE' && /bubblewrap \(bwrap\) is not installed/.test(error.message),
    );
    expect(existsSync(marker)).toBe(false);
  });
});
