import { rm, writeFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH, ensureBuilt, nexusEnv } from './testing/nexus-process-fixture.js';

let dir: TestDir;
const clients: Client[] = [];
/** Poll bound: generous, for a loaded CI machine; a change usually shows within a few hundred ms. */
const POLL = { timeout: 30_000, interval: 25 };

const skillMd = (frontmatter: string) => `---\n${frontmatter}\n---\nInstructions.\n`;
const packageOf = (name: string, description: string, word = name) => ({
  'SKILL.md': skillMd(`name: ${name}\ndescription: ${description}\ncommand: "echo ${word}"`),
  'README.md': `# ${name}\n`,
});

beforeAll(ensureBuilt, 180_000);
beforeEach(async () => {
  dir = await testdir({
    project: {},
    config: { nexus: { skills: { alpha: packageOf('alpha', 'First.', 'one'), beta: packageOf('beta', 'Stays.') } } },
    state: {},
    home: {},
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await dir.cleanup();
});

const userPackage = (...path: string[]) => dir.join('config', 'nexus', 'skills', ...path);

async function connect(): Promise<{ client: Client; notified: () => number; stderr: () => string; logged: () => string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp', '--families', 'skills', '--preset', 'yolo'],
    cwd: dir.join('project'),
    env: nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state'), HOME: dir.join('home') }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'hot-reload-test', version: '1.0.0' });
  let notifications = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    notifications++;
  });
  const logged: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    logged.push(`${params.level}: ${String(params.data)}`);
  });
  await client.connect(transport);
  clients.push(client);
  return { client, notified: () => notifications, stderr: () => stderr, logged: () => logged };
}

const listing = async (client: Client) =>
  Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool.description ?? '']));
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0]?.text ?? '';

describe('nexus mcp while skill packages change on disk, with the SDK client', () => {
  it('notifies after each edit, break, fix, addition and removal; the listing follows; a broken edit keeps the old tool', async () => {
    const { client, notified, stderr, logged } = await connect();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(await listing(client)).toMatchObject({ alpha: 'First.', beta: 'Stays.' });

    let seen = notified();
    const step = async (change: () => Promise<void>) => {
      await change();
      await expect.poll(notified, POLL).toBeGreaterThan(seen);
      seen = notified();
    };

    await step(() => writeFile(userPackage('alpha', 'SKILL.md'), skillMd('name: alpha\ndescription: Second.\ncommand: "echo two"')));
    expect((await listing(client)).alpha).toBe('Second.');
    expect(textOf(await client.callTool({ name: 'alpha', arguments: {} }))).toContain('two');

    await writeFile(userPackage('alpha', 'SKILL.md'), '---\nname: alpha\ndescription: [unclosed\n---\n');
    await expect.poll(stderr, POLL).toMatch(/skill package not loaded: .*alpha\/SKILL\.md:\d+:\d+: error: this change does not load/);
    // The MCP client's log gets it too: that is where the user of a desktop client looks.
    await expect
      .poll(logged, POLL)
      .toContainEqual(
        expect.stringMatching(/^error: skill package not loaded: .*alpha\/SKILL\.md:\d+:\d+: error: this change does not load/),
      );
    expect((await listing(client)).alpha).toBe('Second.');
    expect(textOf(await client.callTool({ name: 'alpha', arguments: {} }))).toContain('two');

    await step(() => writeFile(userPackage('alpha', 'SKILL.md'), skillMd('name: alpha\ndescription: Fixed.\ncommand: "echo three"')));
    expect((await listing(client)).alpha).toBe('Fixed.');

    await step(() => writeTree(userPackage('gamma'), packageOf('gamma', 'Joined.')));
    expect((await listing(client)).gamma).toBe('Joined.');
    expect(textOf(await client.callTool({ name: 'gamma', arguments: {} }))).toContain('gamma');

    await step(() => rm(userPackage('beta'), { recursive: true }));
    expect(await listing(client)).not.toHaveProperty('beta');
    const gone = await client.callTool({ name: 'beta', arguments: {} });
    expect(gone.isError).toBe(true);

    const found = await client.callTool({ name: 'skill_search', arguments: { query: 'joined' } });
    expect(JSON.parse(textOf(found)).results[0]).toMatchObject({ skill: 'gamma', tools: ['gamma'] });
  });

  it('serves an Omni-style Python package and follows edits of its typed commands while in use; one that does not compile keeps the old', async () => {
    const commandsPy = (body: string) =>
      `from agent.skills.decorators import skill_script\n\n@skill_script(name="greet", category="read", description="Greets.")\n${body}\n`;
    await writeTree(userPackage('omni'), {
      'SKILL.md': skillMd('name: omni\ndescription: Omni.'),
      'README.md': '# omni\n',
      scripts: { '__init__.py': '', 'commands.py': commandsPy('def greet(who: str) -> str:\n    return "hello " + who') },
    });
    const { client, notified, stderr } = await connect();
    const schema = async () => (await client.listTools()).tools.find((tool) => tool.name === 'omni__greet')?.inputSchema.properties;
    expect(await schema()).toEqual({ who: { type: 'string', description: 'Required.' } });
    expect(textOf(await client.callTool({ name: 'omni__greet', arguments: { who: 'Ada' } }))).toContain('hello Ada');

    const seen = notified();
    const file = userPackage('omni', 'scripts', 'commands.py');
    await writeFile(file, commandsPy('async def greet(who: str, times: int = 1) -> str:\n    return ("hi " + who + " ") * times'));
    await expect.poll(notified, POLL).toBeGreaterThan(seen);
    expect(await schema()).toEqual({ who: { type: 'string', description: 'Required.' }, times: { type: 'integer', default: 1 } });
    expect(textOf(await client.callTool({ name: 'omni__greet', arguments: { who: 'Ada', times: 2 } }))).toContain('hi Ada hi Ada');

    await writeFile(file, commandsPy('def greet(who: str) -> str:\n    return (\n'));
    await expect
      .poll(stderr, POLL)
      .toMatch(/skill package not loaded: .*omni\/scripts\/commands\.py:\d+:\d+: error: scripts\/commands\.py does not compile/);
    expect(textOf(await client.callTool({ name: 'omni__greet', arguments: { who: 'Ada', times: 1 } }))).toContain('hi Ada');
  });

  it('tells the client’s log, with its first listing, about a package that did not load at start', async () => {
    await writeTree(userPackage('broken'), { 'SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n' });
    const { client, logged } = await connect();
    expect(client.getServerCapabilities()?.logging).toEqual({});
    expect(await listing(client)).toMatchObject({ alpha: 'First.', beta: 'Stays.' });
    await expect
      .poll(logged, POLL)
      .toEqual([expect.stringMatching(/^error: skill package not loaded: .*broken\/SKILL\.md:\d+:\d+: error:/)]);
  });
});
