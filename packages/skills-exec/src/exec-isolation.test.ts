import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  bubblewrapSkipReason,
  isProcessAlive,
  processesWithArgument,
  type SandboxTargets,
  startSandboxTargets,
} from '@nexus/process/testing';
import { createTestAgent, type TestAgentOptions } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execSkills } from './index.js';

const skipReason = await bubblewrapSkipReason();

let dir: TestDir;
beforeEach(async () => {
  dir = await testdir({
    project: { 'inside.txt': 'inside\n', 'secret.txt': 'blocked file content\n', private: { 'key.txt': 'blocked directory content\n' } },
    'sibling.txt': 'sibling\n',
  });
});
afterEach(async () => {
  await dir.cleanup();
});

/** An agent at `trusted` that approves every command, working in `project`. */
function createAgent(options: Omit<TestAgentOptions, 'cwd' | 'families'> = {}) {
  return createTestAgent({ cwd: dir.join('project'), preset: 'trusted', confirm: true, families: [execSkills], ...options });
}

describe.skipIf(skipReason !== '')(`command skills at trusted run inside bubblewrap${skipReason}`, () => {
  let targets: SandboxTargets;
  beforeAll(async () => {
    targets = await startSandboxTargets();
  });
  afterAll(() => targets.close());

  it("cannot read a host process's environment through /proc, nor its parent's", async () => {
    const agent = createAgent();
    const shell = await agent.call('shell_UNSAFE', {
      command: `cat /proc/${targets.hostPid}/environ; cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < $f; done; true`,
    });
    const bash = await agent.call('bash_safe', { command: `cat /proc/${targets.hostPid}/environ` });
    const python = await agent.call('run_python', {
      code: `import os\nprint(sorted(os.listdir("/proc")))\nprint(open("/proc/${targets.hostPid}/environ").read())`,
    });
    for (const result of [shell, bash, python]) expect(JSON.stringify(result)).not.toContain(targets.secret);
    expect(shell).toMatchObject({ success: true, data: { sandboxed: true } });
    expect(bash).toMatchObject({ success: false, data: { sandboxed: true } });
    expect(python).toMatchObject({ success: false, data: { sandboxed: true } });
  });

  it('cannot write outside the working directory; /tmp is private', async () => {
    const tmpName = `/tmp/nexus-exec-private-${randomUUID()}`;
    const result = await createAgent().call('shell_UNSAFE', {
      command: `echo changed > inside.txt; echo changed > ../sibling.txt; echo changed > ${join(targets.outside, 'escaped.txt')}; echo private > ${tmpName}; cat ${tmpName}; true`,
    });
    expect(readFileSync(dir.join('sibling.txt'), 'utf8')).toBe('sibling\n');
    expect(existsSync(join(targets.outside, 'escaped.txt'))).toBe(false);
    expect(existsSync(tmpName)).toBe(false);
    expect(readFileSync(dir.join('project', 'inside.txt'), 'utf8')).toBe('changed\n');
    expect(result).toMatchObject({ success: true, output: expect.stringContaining('private') });
    expect(result.output).toContain('Read-only file system');
  });

  it('cannot see the content of blocked paths', async () => {
    const agent = createAgent({ blockedPaths: [dir.join('project', 'secret.txt'), dir.join('project', 'private')] });
    const shell = await agent.call('shell_UNSAFE', { command: 'cat secret.txt; ls private; cat private/key.txt; true' });
    const bash = await agent.call('bash_safe', { command: `cat ${dir.join('project', 'secret.txt')}` });
    for (const result of [shell, bash]) expect(JSON.stringify(result)).not.toContain('content');
  });

  it('ends `env -i setsid sleep &` with the call', async () => {
    const token = `600.${Date.now() % 1_000_000}`;
    const result = await createAgent().call('shell_UNSAFE', {
      command: `env -i setsid sleep ${token} & while ! grep -q ${token} /proc/$!/cmdline 2>/dev/null; do sleep 0.01; done; echo started`,
    });
    const survivors = processesWithArgument(token).filter(isProcessAlive);
    for (const pid of survivors) process.kill(pid, 'SIGKILL');
    expect(survivors).toEqual([]);
    expect(result).toMatchObject({ success: true, output: 'started' });
  });

  it('follows the exec settings: network off, unisolated when told, bubblewrap at yolo when asked for', async () => {
    const offline = await createAgent({ services: { exec: { sandbox: 'auto', network: false } } }).call('shell_UNSAFE', {
      command: 'cat /proc/net/dev',
    });
    expect(offline.output).toMatch(/lo:/);
    expect(offline.output).not.toMatch(/^\s*(?!lo:)\w+:/m);
    const none = await createAgent({ services: { exec: { sandbox: 'none', network: true } } }).call('bash_safe', { command: 'true' });
    expect(none).toMatchObject({ success: true, data: { sandboxed: false } });
    const yolo = await createAgent({ preset: 'yolo' }).call('bash_safe', { command: 'true' });
    expect(yolo).toMatchObject({ success: true, data: { sandboxed: false } });
    const yoloIsolated = await createAgent({ preset: 'yolo', services: { exec: { sandbox: 'bubblewrap', network: true } } }).call(
      'bash_safe',
      { command: 'true' },
    );
    expect(yoloIsolated).toMatchObject({ success: true, data: { sandboxed: true } });
  });
});

describe('where bubblewrap is missing', () => {
  let savedPath: string | undefined;
  beforeEach(() => {
    // A PATH holding only the programs these tests run.
    for (const program of ['sh', 'touch']) symlinkSync(`/bin/${program}`, dir.join(program));
    savedPath = process.env.PATH;
    process.env.PATH = dir.path;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('runs unisolated with exec.sandbox auto', async () => {
    const result = await createAgent().call('bash_safe', { command: 'touch ran' });
    expect(result).toMatchObject({ success: true, data: { sandboxed: false } });
    expect(existsSync(dir.join('project', 'ran'))).toBe(true);
  });

  it('refuses clearly, without asking or running anything, with exec.sandbox bubblewrap', async () => {
    const agent = createAgent({ services: { exec: { sandbox: 'bubblewrap', network: true } } });
    const result = await agent.call('shell_UNSAFE', { command: 'touch ran' });
    expect(result).toMatchObject({ success: false, kind: 'execution_failed' });
    expect(result.error).toContain(
      'Commands must run inside bubblewrap (exec.sandbox is "bubblewrap"), but bubblewrap (bwrap) is not installed',
    );
    expect(agent.confirmations).toEqual([]);
    expect(existsSync(dir.join('project', 'ran'))).toBe(false);
  });
});
