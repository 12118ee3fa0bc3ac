import { readFile } from 'node:fs/promises';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

// A hook program: reads the call on stdin and answers as its first argument says.
const HOOK = `
const [mode, record] = process.argv.slice(2);
let input = '';
process.stdin.on('data', (chunk) => (input += chunk)).on('end', () => {
  const call = JSON.parse(input);
  if (record) require('node:fs').writeFileSync(record, input);
  if (mode === 'hang') return setInterval(() => {}, 1000);
  if (mode === 'fail') { process.stderr.write('rules file missing\\n'); process.exit(3); }
  if (mode === 'garbage') return process.stdout.write('yes please');
  if (mode === 'redact') return process.stdout.write(JSON.stringify({ output: call.result.output.replace('hello', '[redacted]') }));
  const deny = String(call.arguments.path).includes('private');
  process.stdout.write(JSON.stringify(deny ? { decision: 'deny', reason: 'private files stay private' } : { decision: 'allow' }));
});
`;

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello\n', 'private.txt': 'p\n' }, config: {}, 'hook.cjs': HOOK });
});

afterEach(async () => {
  await dir.cleanup();
});

async function run(args: string[]) {
  const memory = memoryIo({ cwd: dir.join('project'), configHome: dir.join('config') });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const hook = (mode: string, extra: object = {}) => ({ command: [process.execPath, dir.join('hook.cjs'), mode], ...extra });
const userConfig = (config: object) => writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });

describe('command hooks', () => {
  it('get the call as JSON on stdin and may deny it with a reason', async () => {
    const record = dir.join('call.json');
    await userConfig({ hooks: { beforeCall: [{ ...hook('judge'), command: [...hook('judge').command, record], tools: ['read_file'] }] } });
    const allowed = await run(['call', 'read_file', 'path=notes.txt']);
    expect(allowed).toMatchObject({ code: 0, stdout: expect.stringContaining('hello') });
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({
      tool: 'read_file',
      arguments: expect.objectContaining({ path: 'notes.txt' }),
      caller: {},
      cwd: dir.join('project'),
      level: 'sandboxed',
    });
    const denied = await run(['call', 'read_file', 'path=private.txt']);
    expect(denied.code).toBe(1);
    const name = [process.execPath, dir.join('hook.cjs'), 'judge', record].join(' ');
    expect(denied.stderr).toContain(`read_file was denied by the beforeCall hook "${name}": private files stay private.`);
  });

  it('deny when the hook hangs past its time limit, fails or answers nonsense, and say so', async () => {
    for (const [mode, message] of [
      ['hang', 'it did not answer within 1 s'],
      ['fail', 'it exited with code 3: rules file missing'],
      ['garbage', 'it answered no JSON object'],
    ] as const) {
      await userConfig({ hooks: { beforeCall: [hook(mode, { timeoutSeconds: 1 })] } });
      const { code, stderr } = await run(['call', 'read_file', 'path=notes.txt']);
      expect(code, mode).toBe(1);
      expect(stderr, mode).toContain('read_file was denied: the beforeCall hook');
      expect(stderr, mode).toContain(message);
    }
  });

  it('skip tools they are not for', async () => {
    await userConfig({ hooks: { beforeCall: [hook('fail', { tools: ['write_file'] })] } });
    expect((await run(['call', 'read_file', 'path=notes.txt'])).code).toBe(0);
  });

  it('after the call may replace its output', async () => {
    await userConfig({ hooks: { afterCall: [hook('redact')] } });
    const { code, stdout } = await run(['call', 'read_file', 'path=notes.txt']);
    expect(code).toBe(0);
    expect(stdout).toContain('[redacted]');
    expect(stdout).not.toContain('hello');
  });

  it('name a tool that does not exist', async () => {
    await userConfig({ hooks: { afterCall: [hook('redact', { tools: ['read_fil'] })] } });
    expect(await run(['config'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('`hooks.afterCall[0].tools`: no tool named "read_fil"'),
    });
  });

  it('are refused in a working directory’s file', async () => {
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ hooks: { beforeCall: [] } }) });
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain('`hooks` is not allowed here');
  });
});
