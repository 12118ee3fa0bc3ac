import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, nexusEnv, runNexus } from './testing/nexus-process.js';

let dir: TestDir;

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
});
