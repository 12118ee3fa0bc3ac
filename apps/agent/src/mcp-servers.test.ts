import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';
import { connectToNexusMcp, ensureBuilt, nexusEnv, runNexus, textOf } from './testing/nexus-process-fixture.js';

const require = createRequire(import.meta.url);
/** @nexus/mcp's misbehaving test server: tools that touch a marker, report their pid, crash … */
const hostileScript = join(dirname(require.resolve('@nexus/mcp/package.json')), 'test', 'hostile-mcp-server.mjs');
/** @nexus/mcp's McpServer that registers the tool `added` when `add_tool` is called. */
const growingScript = join(dirname(require.resolve('@nexus/mcp/package.json')), 'test', 'growing-mcp-server.mjs');
const filesystemScript = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello from the project\n' }, config: {} });
});
afterEach(async () => {
  await dir.cleanup();
});

function hostile(extra: object = {}) {
  return { command: process.execPath, args: [hostileScript], ...extra };
}
function files(extra: object = {}) {
  return { command: process.execPath, args: [filesystemScript, dir.join('project')], readOnly: true, ...extra };
}

function userConfig(config: object): Promise<void> {
  return writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
}

async function run(args: string[]) {
  const memory = memoryIo({ cwd: dir.join('project'), configHome: dir.join('config') });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

describe('mcpServers in the config files', () => {
  it('refuses servers in a working directory’s file', async () => {
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ mcpServers: { sneaky: hostile() } }) });
    const { code, stderr } = await run(['tools']);
    expect(code).toBe(2);
    expect(stderr).toContain('nexus.config.json: `mcpServers` is not allowed here');
  });

  it.each([
    [
      { bad: { command: 'x', url: 'http://127.0.0.1/' } },
      '`mcpServers.bad`: Invalid configuration of MCP server "bad": set either `command` or `url`',
    ],
    [{ bad: { type: 'http', url: 'ftp://example.com/' } }, '`mcpServers.bad`: Invalid configuration of MCP server "bad": `url`'],
    [{ bad: { command: 'x', enabled: 'yes' } }, '`mcpServers.bad`: `enabled`'],
    [{ bad: { command: 'x', timeoutSeconds: 0 } }, '`mcpServers.bad`: Invalid configuration of MCP server "bad": `timeoutSeconds`'],
    [{ bad: 'npx server' }, '`mcpServers.bad`:'],
  ])('names the field of a bad entry: %j', async (mcpServers, message) => {
    await userConfig({ mcpServers });
    const { code, stderr } = await run(['mcp-servers', 'list']);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('nexus mcp-servers', () => {
  it('lists every server — running, disabled, one that cannot start — with its transport, state, tool count and last error', async () => {
    await userConfig({
      mcpServers: {
        hostile: hostile(),
        resting: hostile({ enabled: false }),
        missing: { command: dir.join('no-such-server') },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', enabled: false },
      },
    });
    const json = await run(['mcp-servers', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { name: 'hostile', transport: 'stdio', state: 'running', toolCount: 16 },
      { name: 'resting', transport: 'stdio', state: 'disabled', toolCount: 0 },
      { name: 'missing', transport: 'stdio', state: 'failed', toolCount: 0, lastError: expect.stringMatching(/could not be imported/) },
      { name: 'remote', transport: 'http', state: 'disabled', toolCount: 0 },
    ]);
    const table = await run(['mcp-servers', 'list']);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +TRANSPORT +STATE +TOOLS +LAST ERROR$/);
    expect(lines[1]).toMatch(/^hostile +stdio +running +16$/);
    expect(lines[3]).toMatch(/^missing +stdio +failed +0 +MCP server "missing" could not be imported: .*ENOENT/);
  });

  it('says when no server is configured', async () => {
    expect((await run(['mcp-servers', 'list'])).stdout).toContain('No MCP servers configured');
  });

  it('lists one server’s tools and whether the permissions offer them', async () => {
    await userConfig({ mcpServers: { files: files() } });
    const { code, stdout } = await run(['mcp-servers', 'tools', 'files']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^mcp__files__read_text_file +read +enabled +/m);
    expect(stdout).toMatch(/^mcp__files__write_file +write, destructive +needs --preset trusted +/m);
    const json: { name: string }[] = JSON.parse((await run(['mcp-servers', 'tools', 'files', '--json', '--preset', 'trusted'])).stdout);
    expect(json.find((tool) => tool.name === 'mcp__files__write_file')).toMatchObject({ enabled: true, minimumLevel: 'trusted' });
  });

  it('refuses bad usage', async () => {
    await userConfig({ mcpServers: { files: files() } });
    expect(await run(['mcp-servers'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Expected `list`, `tools <name>` or `login <name>`'),
    });
    expect(await run(['mcp-servers', 'tools'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Missing the server name') });
    expect(await run(['mcp-servers', 'tools', 'other'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('No MCP server named "other" in your user config file; configured: files.'),
    });
  });
});

describe('imported tools in nexus tools and nexus call', () => {
  it('lists imported tools with their server as the family', async () => {
    await userConfig({ mcpServers: { files: files() } });
    const { stdout } = await run(['tools', '--families', 'utility']);
    expect(stdout).toMatch(/^mcp__files__read_text_file +read +mcp:files +/m);
    expect(stdout).not.toContain('mcp__files__write_file');
  });

  it('warns on stderr about a server that did not start, and serves the rest', async () => {
    await userConfig({ mcpServers: { files: files(), missing: { command: dir.join('no-such-server') } } });
    const { code, stdout, stderr } = await run(['tools', '--families', 'utility']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^mcp__files__read_text_file /m);
    expect(stderr).toMatch(
      /^nexus: warning: MCP server "missing" could not be imported: .*; its tools are left out \(see `nexus mcp-servers list`\)\.\n$/,
    );
  });

  it('calls an imported tool, and ends the server when the command ends', async () => {
    await userConfig({ mcpServers: { hostile: hostile() } });
    const called = await run(['call', 'mcp__hostile__report_env', '--preset', 'yolo', '--json']);
    expect(called.code).toBe(0);
    const { pid } = JSON.parse(called.stdout).data as { pid: number };
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
  });

  it('refuses an imported tool at trusted when nobody can confirm, sending nothing', async () => {
    await userConfig({ mcpServers: { hostile: hostile() } });
    const marker = dir.join('marker');
    const refused = await run(['call', 'mcp__hostile__touch', `marker=${marker}`, '--preset', 'trusted']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mcp__hostile__touch failed (forbidden)');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the built nexus command with imported servers', () => {
  beforeAll(ensureBuilt, 180_000);
  /** Runs `nexus <args>`; a command that has not exited within a minute is killed and the test fails. */
  const nexus = (args: string[]) => runNexus(args, { cwd: dir.join('project'), env: nexusEnv(dir.join('config')), exitWithinMs: 60_000 });

  it('lists the tools of two servers whose names fold alike under distinct names, whatever their order, and exits', async () => {
    /** The `report_env` tool of each server, by family (`mcp:<server>`), as `nexus tools` lists them. */
    async function reportEnvByFamily(servers: string[]): Promise<Record<string, string>> {
      await userConfig({ mcpServers: Object.fromEntries(servers.map((name) => [name, hostile()])) });
      const { code, stdout, stderr } = await nexus(['tools', '--families', 'utility', '--preset', 'trusted']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const rows = stdout.split('\n').filter((line) => /^mcp__\S+__report_env /.test(line));
      return Object.fromEntries(rows.map((line) => line.split(/ +/)).map(([name, , family]) => [family, name]));
    }
    const listed = await reportEnvByFamily(['acme.tools', 'acme_tools']);
    expect(listed).toEqual({
      'mcp:acme_tools': 'mcp__acme_tools__report_env',
      'mcp:acme.tools': expect.stringMatching(/^mcp__acme_tools_[0-9a-f]{6}__report_env$/),
    });
    expect(await reportEnvByFamily(['acme_tools', 'acme.tools'])).toEqual(listed);
  }, 120_000);

  it.each(['tools', 'mcp', 'call echo message=hi', 'mcp-servers list', 'config'])(
    'nexus %s exits with the message when an imported tool cannot be registered',
    async (command) => {
      const badTool = {
        name: 'bad',
        description: 'A parameter of no known type.',
        inputSchema: { type: 'object', properties: { a: { type: 'bogus' } } },
      };
      await userConfig({
        mcpServers: { fine: hostile(), broken: hostile({ env: { HOSTILE_EXTRA_TOOLS: JSON.stringify([badTool]) } }) },
      });
      const { code, stderr } = await nexus([...command.split(' '), '--families', 'utility']);
      expect(stderr).toMatch(/^nexus: Invalid parameters schema for skill "mcp__broken__bad": .*bogus.*\n$/);
      expect(code).toBe(2);
    },
    120_000,
  );

  it('nexus skills run ends the servers it started, and exits', async () => {
    await userConfig({ mcpServers: { fine: hostile() } });
    const { code, stderr } = await nexus(['skills', 'run', 'nothing']);
    expect(stderr).toContain('No skill package is named "nothing"');
    expect(code).toBe(1);
  }, 120_000);
});

describe('nexus mcp as a proxy in front of imported servers, with the SDK client', () => {
  const clients: Client[] = [];
  beforeAll(ensureBuilt, 180_000);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(args: string[], client = new Client({ name: 'proxy-test', version: '1.0.0' })): Promise<Client> {
    const options = { cwd: dir.join('project'), configHome: dir.join('config') };
    clients.push(await connectToNexusMcp(client, ['--families', 'utility', ...args], options));
    return client;
  }

  it('offers and calls only what the policy allows at sandboxed', async () => {
    await userConfig({ mcpServers: { files: files(), hostile: hostile() } });
    const client = await connect([]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('mcp__files__read_text_file');
    expect(names).not.toContain('mcp__files__write_file');
    expect(names.filter((name) => name.startsWith('mcp__hostile__'))).toEqual([]);
    const read = await client.callTool({ name: 'mcp__files__read_text_file', arguments: { path: dir.join('project', 'notes.txt') } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toBe('hello from the project\n');
    const refused = await client.callTool({ name: 'mcp__hostile__touch', arguments: { marker: dir.join('sandboxed-marker') } });
    expect(refused.isError).toBe(true);
    expect(existsSync(dir.join('sandboxed-marker'))).toBe(false);
  }, 60_000);

  it('tells the client’s log about a server that did not start', async () => {
    await userConfig({ mcpServers: { files: files(), missing: { command: dir.join('no-such-server') } } });
    const client = new Client({ name: 'logged', version: '1.0.0' });
    const logged: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      logged.push(`${params.level}: ${String(params.data)}`);
    });
    await connect([], client);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('mcp__files__read_text_file');
    await expect
      .poll(() => logged)
      .toEqual([expect.stringMatching(/^warning: MCP server "missing" could not be imported: .*; its tools are left out/)]);
  }, 60_000);

  it('passes on an imported server’s notifications/tools/list_changed, and lists and calls its new tool', async () => {
    await userConfig({ mcpServers: { growing: { command: process.execPath, args: [growingScript] } } });
    const client = new Client({ name: 'following', version: '1.0.0' });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await connect(['--preset', 'yolo'], client);
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toEqual(expect.arrayContaining(['echo', 'mcp__growing__add_tool']));
    expect(await names()).not.toContain('mcp__growing__added');

    expect(textOf(await client.callTool({ name: 'mcp__growing__add_tool', arguments: {} }))).toBe('added');
    await waitUntil(() => changes > 0, 'notifications/tools/list_changed from nexus mcp');
    expect(await names()).toContain('mcp__growing__added');
    expect(textOf(await client.callTool({ name: 'mcp__growing__added', arguments: {} }))).toBe('added ran');
  }, 60_000);

  it('asks the client once per server at trusted, and a declining client sends nothing', async () => {
    await userConfig({ mcpServers: { hostile: hostile() } });
    const asking = new Client({ name: 'asking', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const questions: string[] = [];
    asking.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await connect(['--preset', 'trusted'], asking);
    for (const marker of ['first', 'second']) {
      const result = await asking.callTool({ name: 'mcp__hostile__touch', arguments: { marker: dir.join(marker) } });
      expect(textOf(result)).toBe('touched');
    }
    expect(questions).toEqual([expect.stringContaining('use MCP server hostile')]);

    const declining = new Client({ name: 'declining', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    declining.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
    await connect(['--preset', 'trusted'], declining);
    const refused = await declining.callTool({ name: 'mcp__hostile__touch', arguments: { marker: dir.join('declined') } });
    expect(refused.isError).toBe(true);
    expect(existsSync(dir.join('declined'))).toBe(false);
  }, 60_000);
});
