import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { bubblewrapSkipReason } from '@nexus/process/testing';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, nexusEnv, runNexus } from './testing/nexus-process-fixture.js';

let dir: TestDir;
const skipReason = await bubblewrapSkipReason();

beforeAll(ensureBuilt, 180_000);

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello from the project\n' }, 'outside.txt': 'not yours\n', config: {} });
});

afterEach(async () => {
  await dir.cleanup();
});

function nexus(args: string[], input?: string) {
  return runNexus(args, { cwd: dir.join('project'), env: nexusEnv(dir.join('config')), ...(input === undefined ? {} : { input }) });
}

describe('the built nexus command', () => {
  it('exits 0 and prints the output of a successful call', async () => {
    expect(await nexus(['call', 'echo', 'message=from the shell'])).toEqual({ code: 0, stdout: 'from the shell\n', stderr: '' });
  });

  it('exits 1 on a failed result, 2 on bad usage', async () => {
    const failed = await nexus(['call', 'sleep', '{"seconds": "later"}']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('`seconds`');
    const usage = await nexus(['call', 'echo', 'not-a-pair']);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^nexus: Expected arguments as name=value pairs/)]);
  });

  it('reads a file with the fs family and refuses a sandbox escapeAttempt', async () => {
    const read = await nexus(['call', 'read_file', 'path=notes.txt']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('hello from the project');
    const escapeAttempt = await nexus(['call', 'read_file', '{"path": "../outside.txt"}', '--json']);
    expect(escapeAttempt.code).toBe(1);
    expect(JSON.parse(escapeAttempt.stdout)).toMatchObject({ success: false, kind: 'forbidden' });
    expect(escapeAttempt.stdout).not.toContain('not yours');
  });

  it('prints its help as the default', async () => {
    const { code, stdout } = await nexus([]);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage\n  nexus <command> [options]');
  });

  it('refuses a confirmation when stdin is not a terminal', async () => {
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ tools: { echo: { requiresConfirmation: true } } }),
    });
    const { code, stdout, stderr } = await nexus(['call', 'echo', 'message=x'], 'y\n');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('needs confirmation');
  });

  describe('exec isolation', () => {
    const configure = (config: object) => writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });

    it.skipIf(skipReason !== '')(`keeps its own environment away from the commands it runs${skipReason}`, async () => {
      const secret = `planted-nexus-secret-${randomUUID()}`;
      await configure({ preset: 'yolo', exec: { sandbox: 'bubblewrap' } });
      const command = 'cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < $f; done; echo done';
      const { code, stdout, stderr } = await runNexus(['call', 'shell_UNSAFE', `command=${command}`, '--json'], {
        cwd: dir.join('project'),
        env: nexusEnv(dir.join('config'), { NEXUS_PLANTED_TOKEN: secret }),
      });
      expect(stdout + stderr).not.toContain(secret);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ success: true, data: { sandboxed: true } });
    });

    it('says where bubblewrap is missing: unisolated with auto, every command refused when it is required', async () => {
      const withoutBubblewrap = { cwd: dir.join('project'), env: nexusEnv(dir.join('config'), { PATH: dir.path }) };
      const auto = JSON.parse((await runNexus(['config', '--preset', 'trusted'], withoutBubblewrap)).stdout);
      expect(auto.exec).toEqual({
        sandbox: 'auto',
        network: true,
        isolation: 'none',
        reason: 'bubblewrap (bwrap) is not installed (not found on PATH; the Debian and Ubuntu package is "bubblewrap")',
      });
      const tools = await runNexus(['tools', '--all', '--preset', 'trusted'], withoutBubblewrap);
      expect(tools.stdout).toContain('Commands run unisolated: bubblewrap (bwrap) is not installed');

      await configure({ preset: 'yolo', exec: { sandbox: 'bubblewrap' } });
      const required = JSON.parse((await runNexus(['config'], withoutBubblewrap)).stdout);
      expect(required.exec).toMatchObject({ sandbox: 'bubblewrap', isolation: 'none', refused: true });
      expect((await runNexus(['tools', '--all'], withoutBubblewrap)).stdout).toContain(
        'Commands are refused: Commands must run inside bubblewrap (exec.sandbox is "bubblewrap"), but bubblewrap (bwrap) is not installed',
      );
      const call = await runNexus(['call', 'bash_safe', `command=/bin/touch ${dir.join('ran')}`], withoutBubblewrap);
      expect(call.code).toBe(1);
      expect(call.stderr).toContain('Commands must run inside bubblewrap');
      expect(existsSync(dir.join('ran'))).toBe(false);
    });
  });
});
