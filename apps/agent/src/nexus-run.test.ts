import { readFile } from 'node:fs/promises';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

const KEY = 'sk-nexus-run-test-SECRET-0123456789';

let dir: TestDir;
let llm: LlmStandIn;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'status: draft\n' }, config: {} });
  llm = await startLlmStandIn();
});

afterEach(async () => {
  await llm.close();
  await dir.cleanup();
});

function userConfig(extra: object = {}): Promise<void> {
  const config = {
    providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: 'TEST_LLM_KEY' } },
    models: { fast: { provider: 'local', id: 'test-model', contextWindow: 32768 } },
    defaultModel: 'fast',
    ...extra,
  };
  return writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
}

async function nexus(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const memory = memoryIo({
    cwd: dir.join('project'),
    configHome: dir.join('config'),
    env: { TEST_LLM_KEY: KEY, ...options.env },
    ...options,
  });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

describe('nexus run', () => {
  it('streams the answer to stdout and one line per tool call and result to stderr', async () => {
    await userConfig();
    llm.script({ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'The notes say the status is draft.' });

    const { code, stdout, stderr } = await nexus(['run', 'What', 'do', 'the', 'notes', 'say?']);

    expect(code).toBe(0);
    expect(stdout).toBe('The notes say the status is draft.\n');
    expect(stderr).toBe('→ read_file path=notes.txt\n✓ read_file 1 line\n');
    expect(llm.requests[0]?.body.messages).toEqual(expect.arrayContaining([{ role: 'user', content: 'What do the notes say?' }]));
  });

  it('--json prints the turn with the seeds’ field names', async () => {
    await userConfig();
    llm.script(
      { toolCalls: [{ name: 'read_file', arguments: { path: '/etc/hostname' } }] },
      { text: 'I may not read it.', usage: { inputTokens: 120, outputTokens: 7 } },
    );

    const { code, stdout, stderr } = await nexus(['run', '--json', 'Read /etc/hostname']);

    expect(code).toBe(0);
    const turn = JSON.parse(stdout);
    expect(turn).toMatchObject({
      content: 'I may not read it.',
      request_id: expect.any(String),
      halted_at_iteration_limit: false,
      tool_calls: [{ name: 'read_file', arguments: { path: '/etc/hostname' }, success: false, kind: 'forbidden' }],
    });
    expect(turn.usage).toMatchObject({ outputTokens: expect.any(Number), estimated: false });
    expect(stderr).toMatch(/^→ read_file path=\/etc\/hostname\n✗ read_file forbidden: /);
  });

  it('reads the prompt from stdin with -', async () => {
    await userConfig();
    llm.script({ text: 'Got it.' });

    const { code } = await nexus(['run', '-'], { input: 'a prompt\nover two lines\n' });

    expect(code).toBe(0);
    expect(llm.requests[0]?.body.messages).toEqual(expect.arrayContaining([{ role: 'user', content: 'a prompt\nover two lines\n' }]));
  });

  it('warns on stderr and still exits 0 when the turn stops at the iteration limit', async () => {
    await userConfig({ agent: { maxToolIterations: 1 } });
    llm.script({ text: 'Let me write.', toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] });

    const { code, stderr } = await nexus(['run', 'Write out.txt']);

    expect(code).toBe(0);
    expect(stderr).toContain('warning: the turn stopped at its limit of 1 model calls (agent.maxToolIterations)');
    expect(llm.requests).toHaveLength(1);
  });

  it('exits 1 with one line naming the model, host and status when the provider fails, never showing the key', async () => {
    await userConfig();
    llm.script({ error: { status: 401, message: `Incorrect API key provided: ${KEY}` } });

    const { code, stdout, stderr } = await nexus(['run', 'Hello']);

    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^nexus: model "fast" at 127\.0\.0\.1:\d+: 401: check TEST_LLM_KEY \(Incorrect API key provided: \[redacted\]\)\n$/,
    );
    expect(stdout + stderr).not.toContain(KEY);
  });

  it.each([
    [['run', '--model', 'slow', 'Hi'], {}, /^nexus: Unknown model "slow"; configured: fast\.\n$/],
    [['run', 'Hi'], { TEST_LLM_KEY: '' }, /^nexus: Model "fast" needs an API key: set the environment variable TEST_LLM_KEY\.\n$/],
    [['run'], {}, /Missing the prompt/],
  ])('exits 2 on bad usage or configuration: %j', async (args, env, message) => {
    await userConfig();

    const { code, stderr } = await nexus(args, { env });

    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(llm.requests).toHaveLength(0);
  });

  it('refuses providers and models in a working directory’s config file', async () => {
    await userConfig();
    await writeTree(dir.join('project'), {
      'nexus.config.json': JSON.stringify({ providers: { evil: { type: 'openai-compatible', baseUrl: 'https://evil.example.com/v1' } } }),
    });

    const { code, stderr } = await nexus(['run', 'Hi']);

    expect(code).toBe(2);
    expect(stderr).toMatch(/nexus\.config\.json: `providers` is not allowed here/);
  });

  it('refuses what needs confirmation when nobody can be asked', async () => {
    await userConfig({ preset: 'trusted' });
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: dir.join('outside.txt'), content: 'x' } }] }, { text: 'Refused.' });

    const { code, stderr } = await nexus(['run', 'Write outside']);

    expect(code).toBe(0);
    expect(stderr).toMatch(/✗ write_file forbidden: /);
  });

  it('asks on the terminal instead of pausing for an approval', async () => {
    await userConfig({ preset: 'trusted' });
    const target = dir.join('outside.txt');
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'asked' } }] }, { text: 'Written.' });

    const { code, stdout, stderr } = await nexus(['run', 'Write outside'], { input: 'y\n', tty: true });

    expect(code).toBe(0);
    expect(stdout).toBe('Written.\n');
    expect(stderr).toContain(`Allow write_file to write outside the working directory: ${target}? [y/N]`);
    expect(await readFile(target, 'utf8')).toBe('asked');
  });
});

describe('nexus models', () => {
  it('lists the aliases with host and key state, never the key', async () => {
    await userConfig();

    const table = await nexus(['models']);
    const json = await nexus(['models', '--json']);

    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      /^ALIAS +PROVIDER +TYPE +HOST +MODEL +KEY\nfast \* +local +openai-compatible +127\.0\.0\.1:\d+ +test-model +set\n$/,
    );
    expect(JSON.parse(json.stdout)).toEqual([
      {
        alias: 'fast',
        provider: 'local',
        type: 'openai-compatible',
        host: new URL(llm.url).host,
        id: 'test-model',
        keySet: true,
        default: true,
      },
    ]);
    expect(table.stdout + json.stdout).not.toContain(KEY);
  });

  it('says how to configure models when there are none', async () => {
    const { code, stdout } = await nexus(['models']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/No models configured/);
  });
});

describe('nexus chat', () => {
  it('reads lines as messages, keeps the conversation, and runs /status, /clear and /exit', async () => {
    await userConfig();
    llm.script({ text: 'Hello there.' }, { text: 'You said hello.' }, { text: 'Fresh.' });

    const { code, stdout, stderr } = await nexus(['chat'], {
      input: 'hello\nwhat did I say?\n/status\n/clear\nagain\n/exit\nnever sent\n',
    });

    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('Hello there.\nYou said hello.\n');
    const status = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1).split('\nThe conversation')[0] as string);
    expect(status.context).toMatchObject({ message_count: 4, max_tool_iterations: 100 });
    expect(status.tokens).toMatchObject({ budget: 32768 });
    expect(stdout).toContain('The conversation is cleared.\nFresh.\n');
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests.map((request) => (request.body.messages as unknown[]).length)).toEqual([2, 4, 2]);
  });

  it('reports a provider failure and goes on', async () => {
    await userConfig();
    llm.script({ error: { status: 400, message: 'bad request' } }, { text: 'Working again.' });

    const { code, stdout, stderr } = await nexus(['chat'], { input: 'one\ntwo\n' });

    expect(code).toBe(0);
    expect(stderr).toMatch(/^nexus: model "fast" at [^:]+:\d+: 400: /);
    expect(stdout).toContain('Working again.');
  });

  it('names an unknown chat command', async () => {
    await userConfig();
    const { stderr } = await nexus(['chat'], { input: '/nope\n' });
    expect(stderr).toBe('Unknown command /nope; the commands are /status, /compact, /clear, /exit.\n');
  });
});
