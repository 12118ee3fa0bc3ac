import { chmod, readdir, readFile, rm, stat } from 'node:fs/promises';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello\n', secret: { 'k.txt': 'k' } }, config: {}, state: {} });
});

afterEach(async () => {
  await dir.cleanup();
});

async function run(args: string[]) {
  const memory = memoryIo({ cwd: dir.join('project'), configHome: dir.join('config'), env: { XDG_STATE_HOME: dir.join('state') } });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const userConfig = (config: object) => writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
const logFile = () => dir.join('state', 'nexus', 'audit.jsonl');
const records = async () =>
  (await readFile(logFile(), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('the audit log', () => {
  it('gets one line per call, only the owner may read it, and secrets stay out', async () => {
    await userConfig({ rules: [{ tool: 'read_file', match: { path: 'secret/**' }, decision: 'deny', reason: 'keys' }] });
    expect((await run(['call', 'read_file', 'path=notes.txt'])).code).toBe(0);
    expect((await run(['call', 'read_file', 'path=notes.txt/../secret/k.txt'])).code).toBe(1);
    expect((await run(['call', 'echo', 'message=use sk-proj-abcdefghijklmnopqrstuvwx please'])).code).toBe(0);
    expect((await stat(logFile())).mode & 0o777).toBe(0o600);
    const lines = await records();
    expect(lines).toEqual([
      expect.objectContaining({ tool: 'read_file', decision: 'allow', decidedBy: 'preset', result: 'ok', isolation: expect.any(String) }),
      expect.objectContaining({ tool: 'read_file', decision: 'deny', decidedBy: 'rule 1', reason: 'keys', result: 'forbidden' }),
      expect.objectContaining({ tool: 'echo', arguments: { message: 'use [redacted] please' } }),
    ]);
    expect(lines[0].policyDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(logFile(), 'utf8')).not.toContain('sk-proj');
  });

  it('narrows a widened file back to 0600 and makes its directory again when it was removed between calls', async () => {
    expect((await run(['call', 'echo', 'message=one'])).code).toBe(0);
    await chmod(logFile(), 0o644);
    expect((await run(['call', 'echo', 'message=two'])).code).toBe(0);
    expect((await stat(logFile())).mode & 0o777).toBe(0o600);
    await rm(dir.join('state', 'nexus'), { recursive: true });
    expect((await run(['call', 'echo', 'message=three'])).code).toBe(0);
    expect((await stat(logFile())).mode & 0o777).toBe(0o600);
    expect((await records()).map((record) => record.arguments)).toEqual([{ message: 'three' }]);
  });

  it('is read by nexus audit, filtered by tool, decision and time, as a table or JSON', async () => {
    await userConfig({ rules: [{ tool: 'echo', match: { message: 'no*' }, decision: 'deny' }] });
    await run(['call', 'echo', 'message=yes']);
    await run(['call', 'echo', 'message=no']);
    await run(['call', 'read_file', 'path=notes.txt']);
    const denied = await run(['audit', '--decision', 'deny', '--json']);
    expect(denied.code).toBe(0);
    expect(
      denied.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([expect.objectContaining({ tool: 'echo', decision: 'deny', arguments: { message: 'no' } })]);
    const table = await run(['audit', '--tool', 'echo']);
    expect(table.stdout.split('\n')[0]).toMatch(/^TIME\s+TOOL\s+DECISION\s+BY\s+RESULT\s+CALLER/);
    expect(table.stdout.trim().split('\n')).toHaveLength(3);
    expect((await run(['audit', '--since', '1h', '--json'])).stdout.trim().split('\n')).toHaveLength(3);
    expect((await run(['audit', '--since', '2999-01-01', '--json'])).stdout).toBe('');
    expect((await run(['audit', '--agent', 'a1', '--json'])).stdout).toBe('');
    expect(await run(['audit', '--decision', 'maybe'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--decision') });
  });

  it('is rotated by size, keeping as many old files as configured, and read across them', async () => {
    await userConfig({ audit: { maxBytes: 700, keep: 2 } });
    for (let index = 0; index < 8; index++) await run(['call', 'echo', `message=call ${index}`]);
    const files = (await readdir(dir.join('state', 'nexus'))).filter((name) => name.startsWith('audit')).sort();
    expect(files).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    for (const file of files) expect((await stat(dir.join('state', 'nexus', file))).size).toBeLessThanOrEqual(700);
    const messages = (await run(['audit', '--json'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).arguments.message);
    expect(messages.length).toBeGreaterThan(1);
    expect(messages).toEqual([...messages].sort());
    expect(messages.at(-1)).toBe('call 7');
  });

  it('is off when disabled, and a project may not change it', async () => {
    await userConfig({ audit: { enabled: false } });
    await run(['call', 'echo', 'message=hi']);
    await expect(stat(logFile())).rejects.toThrow(/ENOENT/);
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ audit: { enabled: false } }) });
    expect(await run(['config'])).toMatchObject({ code: 2, stderr: expect.stringContaining('`audit` is not allowed here') });
  });
});
