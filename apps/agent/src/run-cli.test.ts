import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { bubblewrapSkipReason } from '@nexus/process/testing';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ project: { 'notes.txt': 'hello\n' }, config: {} });
});

afterEach(async () => {
  await dir.cleanup();
});

/** A server holding a port, so that `nexus mcp --http <port>` finds it taken. */
async function listening() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function run(args: string[], options: { input?: string; tty?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const memory = memoryIo({ cwd: dir.join('project'), configHome: dir.join('config'), ...options });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

function userConfig(config: object): Promise<void> {
  return writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
}

function projectConfig(config: object | string): Promise<void> {
  return writeTree(dir.join('project'), { 'nexus.config.json': typeof config === 'string' ? config : JSON.stringify(config) });
}

describe('nexus --help', () => {
  it('explains every command, the permissions and how to widen them', async () => {
    for (const args of [['--help'], [], ['help'], ['-h']]) {
      const { code, stdout } = await run(args);
      expect(code).toBe(0);
      for (const text of ['nexus tools', 'call <tool>', 'mcp', 'config', '--preset trusted', '--allow <path>', 'nexus.config.json'])
        expect(stdout).toContain(text);
    }
  });

  it.each(['tools', 'call', 'mcp', 'config'])('has complete help for `nexus %s`', async (command) => {
    const viaFlag = await run([command, '--help']);
    const viaHelp = await run(['help', command]);
    expect(viaFlag.code).toBe(0);
    expect(viaFlag.stdout).toBe(viaHelp.stdout);
    expect(viaFlag.stdout).toContain(`Usage: nexus ${command}`);
    for (const option of ['--cwd', '--preset', '--allow', '--block', '--families', '--config']) expect(viaFlag.stdout).toContain(option);
  });

  it('shows the client configuration snippet with the path of this nexus', async () => {
    const { stdout } = await run(['mcp', '--help']);
    expect(stdout).toContain('"mcpServers"');
    expect(stdout).toContain('"/opt/nexus/apps/agent/dist/cli.js", "mcp"');
    expect(stdout).toContain('--http [port]');
  });

  it('prints the version', async () => {
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('nexus — bad usage', () => {
  it.each([
    [['frobnicate'], 'Unknown command "frobnicate"'],
    [['tools', '--bogus'], "Unknown option '--bogus'"],
    [['tools', '--preset', 'root'], 'Unknown preset "root"'],
    [['tools', '--families', 'utility,nope'], 'Unknown family "nope"'],
    [['tools', '--format', 'mcp'], '--format only applies with --json'],
    [['tools', '--json', '--format', 'xml'], 'Unknown format "xml"'],
    [['tools', '--http'], '--http is not an option of `nexus tools`'],
    [['mcp', '--port', '80'], '--port and --host only apply with --http'],
    [['mcp', '--http', '99999'], 'Expected the --http port to be an integer'],
    [['call'], 'Missing the tool name'],
    [['call', 'no_such_tool'], 'Unknown tool "no_such_tool"'],
    [['call', 'echo', '{"message": '], 'The arguments are not valid JSON'],
    [['call', 'echo', '[1]'], 'Expected arguments as name=value pairs'],
    [['call', 'echo', 'message'], 'Expected arguments as name=value pairs'],
    [['tools', '--cwd', 'missing-dir'], 'Expected `--cwd` to be an existing directory'],
    [['tools', '--config', 'missing.json'], 'Expected `--config` to name an existing file'],
    [['help', 'nope'], 'No help for "nope"'],
    [['tools', 'extra'], '`nexus tools` takes no arguments'],
    [['mcp', 'extra'], '`nexus mcp` takes no arguments'],
    [['mcp', '--http', 'PORT_IN_USE'], 'is already in use'],
  ])('nexus %j exits 2 with one line', async (args, message) => {
    await using busy = await listening();
    const { code, stdout, stderr } = await run(args.map((arg) => (arg === 'PORT_IN_USE' ? String(busy.port) : arg)));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^nexus: /);
  });
});

describe('nexus tools', () => {
  it('prints a table of the enabled tools with access, family and a one-line description', async () => {
    const { code, stdout } = await run(['tools']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^NAME +ACCESS +FAMILY +DESCRIPTION\n/);
    expect(stdout).toMatch(/^echo +read +utility +Return the given message unchanged\.$/m);
    expect(stdout).toContain('tools enabled (preset sandboxed');
  });

  it('with --all, names the tools the permissions leave out and why', async () => {
    await userConfig({ tools: { sleep: { enabled: false } } });
    const table = await run(['tools']);
    expect(table.stdout).not.toMatch(/^(sleep|bash_safe) /m);
    expect(table.stdout).toContain('4 more are left out');
    const all = await run(['tools', '--all']);
    expect(all.stdout).toMatch(/^sleep +read +utility +disabled by config +Wait/m);
    expect(all.stdout).toMatch(/^bash_safe +write, destructive +exec +needs --preset trusted +Run a single program/m);
    expect(all.stdout).toMatch(/^read_file +read +fs +enabled +Read a UTF-8 text file\.$/m);
  });

  it.each([
    [
      'openai',
      (definition: Record<string, any>) =>
        expect(definition).toMatchObject({ type: 'function', function: { name: 'echo', parameters: { type: 'object' } } }),
    ],
    [
      'anthropic',
      (definition: Record<string, any>) => expect(definition).toMatchObject({ name: 'echo', input_schema: { type: 'object' } }),
    ],
    [
      'mcp',
      (definition: Record<string, any>) =>
        expect(definition).toMatchObject({ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }),
    ],
  ])('prints %s definitions with --json', async (format, check) => {
    const { code, stdout } = await run(['tools', '--json', '--format', format]);
    expect(code).toBe(0);
    const definitions = JSON.parse(stdout) as Record<string, any>[];
    check(definitions.find((definition) => (definition.name ?? definition.function.name) === 'echo') as Record<string, any>);
    expect(JSON.stringify(definitions)).not.toContain('bash_safe');
  });

  it('prints every definition with --json --all, enabled or not', async () => {
    const enabled = JSON.parse((await run(['tools', '--json', '--format', 'anthropic'])).stdout) as { name: string }[];
    const all = JSON.parse((await run(['tools', '--json', '--all', '--format', 'anthropic'])).stdout) as { name: string }[];
    expect(enabled.map((tool) => tool.name)).not.toContain('bash_safe');
    expect(all.map((tool) => tool.name)).toContain('bash_safe');
  });

  it('defaults --json to the OpenAI format and follows --families', async () => {
    const { stdout } = await run(['tools', '--json', '--families', 'utility']);
    expect((JSON.parse(stdout) as { type: string }[]).every((definition) => definition.type === 'function')).toBe(true);
  });
});

describe('nexus call', () => {
  it('prints the output and exits 0', async () => {
    expect(await run(['call', 'echo', '{"message": "hi there"}'])).toEqual({ code: 0, stdout: 'hi there\n', stderr: '' });
  });

  it('takes name=value pairs, converted to the parameter types', async () => {
    const { code, stdout } = await run(['call', 'sleep', 'seconds=0', 'label=nap']);
    expect(code).toBe(0);
    expect(stdout).toBe('Slept 0 s (nap).\n');
  });

  it('prints a failed result on stderr and exits 1', async () => {
    const { code, stdout, stderr } = await run(['call', 'sleep', 'seconds=-3']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^sleep failed \(invalid_input\): .*`seconds`/);
  });

  it('prints the whole ToolResult with --json, for success and failure', async () => {
    const ok = await run(['call', 'echo', 'message=x', '--json']);
    expect(JSON.parse(ok.stdout)).toEqual({ success: true, output: 'x', error: '' });
    const failed = await run(['call', 'echo', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ success: false, kind: 'invalid_input', error: expect.stringContaining('`message`') });
  });

  describe('confirmation', () => {
    beforeEach(() => userConfig({ tools: { echo: { requiresConfirmation: true } } }));

    it('is refused when stdin is not a terminal', async () => {
      const { code, stdout, stderr } = await run(['call', 'echo', 'message=x'], { input: 'y\n' });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('needs confirmation');
    });

    it('is asked on the terminal and granted by "y"', async () => {
      const { code, stdout, stderr } = await run(['call', 'echo', 'message=approved'], { input: 'y\n', tty: true });
      expect(stderr).toContain('Allow echo to run echo? [y/N]');
      expect(code).toBe(0);
      expect(stdout).toBe('approved\n');
    });

    it.each(['n\n', '\n', 'yes please\n', ''])('is refused on the terminal by %j', async (input) => {
      const { code, stderr } = await run(['call', 'echo', 'message=x'], { input, tty: true });
      expect(code).toBe(1);
      expect(stderr).toContain('needs confirmation');
    });
  });
});

describe('nexus config', () => {
  it('prints the effective configuration: sandboxed, rooted at the working directory', async () => {
    const { code, stdout } = await run(['config']);
    expect(code).toBe(0);
    const config = JSON.parse(stdout);
    expect(config).toMatchObject({ cwd: dir.join('project'), preset: 'sandboxed', files: {}, families: ['fs', 'exec', 'git', 'utility'] });
    expect(config.enabledTools).toEqual(expect.arrayContaining(['read_file', 'write_file', 'echo', 'sleep']));
    expect(config.enabledTools).not.toContain('bash_safe');
    expect(config.permissions).toMatchObject({
      level: 'sandboxed',
      allowedPaths: [dir.join('project')],
      writePaths: [dir.join('project')],
    });
  });

  it('reads the user config file from $XDG_CONFIG_HOME/nexus and lets flags win', async () => {
    await userConfig({ preset: 'trusted', allow: ['../shared'], block: ['secret'] });
    const fromFile = JSON.parse((await run(['config'])).stdout);
    expect(fromFile).toMatchObject({
      preset: 'trusted',
      allow: [dir.join('shared')],
      block: [dir.join('project', 'secret')],
      files: { user: dir.join('config', 'nexus', 'nexus.config.json') },
    });
    const flagged = JSON.parse((await run(['config', '--preset', 'sandboxed', '--allow', '/data', '--block', '/etc'])).stdout);
    expect(flagged).toMatchObject({
      preset: 'sandboxed',
      allow: [dir.join('shared'), '/data'],
      block: [dir.join('project', 'secret'), '/etc'],
    });
  });

  it('reads --config instead of the user file, and --cwd sets the sandbox root', async () => {
    await writeTree(dir.path, {
      'custom.json': JSON.stringify({
        families: ['utility'],
        block: ['x'],
        tools: { echo: { allowedPaths: ['sub'] }, sleep: { allowedPaths: null } },
      }),
    });
    const config = JSON.parse((await run(['config', '--config', '../custom.json', '--cwd', '..'])).stdout);
    expect(config).toMatchObject({
      cwd: dir.path,
      families: ['utility'],
      block: [dir.join('x')],
      files: { user: dir.join('custom.json') },
    });
    expect(config.tools).toEqual({ echo: { allowedPaths: [dir.join('sub')] }, sleep: { allowedPaths: null } });
  });

  it('lets a working-directory file narrow: block paths, disable tools, lower the preset', async () => {
    await userConfig({ preset: 'trusted' });
    await projectConfig({ preset: 'sandboxed', block: ['.env'], families: ['utility'], tools: { sleep: { enabled: false } } });
    const config = JSON.parse((await run(['config'])).stdout);
    expect(config).toMatchObject({
      preset: 'sandboxed',
      block: [dir.join('project', '.env')],
      enabledTools: ['echo'],
      files: { workingDirectory: dir.join('project', 'nexus.config.json') },
    });
  });

  it.each([
    [{ preset: 'trusted' }, '`preset`'],
    [{ preset: 'yolo' }, '`preset`'],
    [{ allow: ['/'] }, '`allow`'],
    [{ tools: { echo: { allowedPaths: ['/'] } } }, '`tools.echo.allowedPaths`'],
    [{ tools: { echo: { enabled: true } } }, '`tools.echo.enabled`'],
    [{ tools: { echo: { requiresConfirmation: false } } }, '`tools.echo.requiresConfirmation`'],
    [{ http: { allowedOrigins: ['http://evil.example'] } }, '`http.allowedOrigins`'],
    [{ http: { host: '0.0.0.0' } }, '`http.host`'],
  ])('refuses a working-directory file that would widen permissions: %j', async (config, field) => {
    await projectConfig(config);
    const { code, stderr } = await run(['tools']);
    expect(code).toBe(2);
    expect(stderr).toContain(field);
    expect(stderr).toContain('may only narrow permissions');
  });

  it('accepts a working-directory preset up to the one the user chose', async () => {
    await projectConfig({ preset: 'trusted' });
    expect(JSON.parse((await run(['config', '--preset', 'trusted'])).stdout).preset).toBe('trusted');
    await userConfig({ preset: 'yolo' });
    expect(JSON.parse((await run(['config'])).stdout).preset).toBe('trusted');
  });

  it.each([
    [{ preset: 'root' }, '`preset`: Invalid option'],
    [{ http: { port: 70000 } }, '`http.port`: Too big'],
    [{ families: ['utility', 'nope'] }, '`families.1`'],
    [{ tools: { echo: { enabled: 'yes' } } }, '`tools.echo.enabled`'],
    [{ presets: 'trusted' }, '`presets` is not a known setting'],
    [['not', 'an', 'object'], 'expected object'],
  ])('names the bad field of an invalid config file: %j', async (config, message) => {
    await userConfig(config);
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain(dir.join('config', 'nexus', 'nexus.config.json'));
    expect(stderr).toContain(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('reports a config file that is not JSON', async () => {
    await projectConfig('{ "preset": ');
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain('not valid JSON');
  });
});

const skipReason = await bubblewrapSkipReason();

describe('nexus — exec isolation', () => {
  it.skipIf(skipReason !== '')(`shows exec.isolation bubblewrap at trusted, and says so in nexus tools --all${skipReason}`, async () => {
    const config = JSON.parse((await run(['config', '--preset', 'trusted'])).stdout);
    expect(config.exec).toEqual({ sandbox: 'auto', network: true, isolation: 'bubblewrap' });
    const tools = await run(['tools', '--all', '--preset', 'trusted']);
    expect(tools.stdout).toMatch(/^Commands run inside bubblewrap: a PID namespace of their own, .*, network on\.$/m);
    await userConfig({ exec: { network: false } });
    expect(JSON.parse((await run(['config', '--preset', 'trusted'])).stdout).exec).toEqual({
      sandbox: 'auto',
      network: false,
      isolation: 'bubblewrap',
    });
  });

  it('shows exec.isolation none with the reason at yolo and with exec.sandbox none', async () => {
    const yolo = JSON.parse((await run(['config', '--preset', 'yolo'])).stdout);
    expect(yolo.exec).toEqual({
      sandbox: 'auto',
      network: true,
      isolation: 'none',
      reason: 'the yolo level runs commands unisolated unless exec.sandbox is "bubblewrap"',
    });
    const tools = await run(['tools', '--all', '--preset', 'yolo']);
    expect(tools.stdout).toMatch(
      /^Commands run unisolated: the yolo level runs commands unisolated unless exec\.sandbox is "bubblewrap"\.$/m,
    );
    await userConfig({ exec: { sandbox: 'none' } });
    expect(JSON.parse((await run(['config', '--preset', 'trusted'])).stdout).exec).toEqual({
      sandbox: 'none',
      network: true,
      isolation: 'none',
      reason: 'exec.sandbox is "none"',
    });
    expect((await run(['tools', '--all', '--families', 'fs'])).stdout).not.toContain('Commands run');
  });

  it.each([
    [{ exec: { sandbox: 'docker' } }, '`exec.sandbox`: Invalid option'],
    [{ exec: { network: 'off' } }, '`exec.network`'],
    [{ exec: { seccomp: true } }, '`exec.seccomp` is not a known setting'],
  ])('names the bad exec setting: %j', async (config, message) => {
    await userConfig(config);
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('lets a working-directory file ask for bubblewrap and cut the network, never the reverse', async () => {
    await userConfig({ exec: { sandbox: 'none' } });
    await projectConfig({ exec: { sandbox: 'bubblewrap', network: false } });
    expect(JSON.parse((await run(['config'])).stdout).exec).toMatchObject({ sandbox: 'bubblewrap', network: false });
    for (const [exec, field] of [
      [{ sandbox: 'none' }, '`exec.sandbox`'],
      [{ sandbox: 'auto' }, '`exec.sandbox`'],
      [{ network: true }, '`exec.network`'],
    ] as const) {
      await projectConfig({ exec });
      const { code, stderr } = await run(['config']);
      expect(code).toBe(2);
      expect(stderr).toContain(field);
      expect(stderr).toContain('may only narrow permissions');
    }
  });
});

describe('nexus — GitLab settings', () => {
  const gitlab = { instances: { work: { url: 'https://gitlab.example.com', token: 'glpat-very-secret-value' } } };

  it('turns the gitlab family on once instances are configured, and never prints the token', async () => {
    await userConfig({ preset: 'trusted', gitlab });
    const { code, stdout } = await run(['config']);
    expect(code).toBe(0);
    const config = JSON.parse(stdout);
    expect(config.families).toContain('gitlab');
    expect(config.enabledTools).toContain('gitlab_issue');
    expect(config.gitlab.instances.work).toEqual({ url: 'https://gitlab.example.com', token: '<hidden>' });
    expect(stdout).not.toContain('glpat-very-secret-value');
  });

  it('leaves the family off without instances, and says what is missing when it is asked for', async () => {
    expect(JSON.parse((await run(['config'])).stdout).families).not.toContain('gitlab');
    const { code, stderr } = await run(['tools', '--families', 'gitlab']);
    expect(code).toBe(2);
    expect(stderr).toContain('The gitlab family needs GitLab instances');
  });

  it('names the bad GitLab field without quoting the token', async () => {
    await userConfig({ gitlab: { instances: { work: { url: 'ftp://gitlab.example.com', token: 'glpat-very-secret-value' } } } });
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain('`gitlab`');
    expect(stderr).toContain('instances.work.url');
    expect(stderr).not.toContain('glpat-very-secret-value');
  });

  it('refuses GitLab settings in a working-directory file, where a repository could redirect the token', async () => {
    await userConfig({ gitlab });
    await projectConfig({ gitlab: { instances: { work: { url: 'https://attacker.example', tokenEnv: 'GITLAB_TOKEN' } } } });
    const { code, stderr } = await run(['tools']);
    expect(code).toBe(2);
    expect(stderr).toContain('`gitlab` is not allowed here');
  });
});

describe('nexus call — the fs family in a temporary directory', () => {
  beforeEach(() => writeTree(dir.path, { 'outside.txt': 'secret outside\n', project: { 'link-out': { symlink: '../outside.txt' } } }));

  it('reads and writes inside the working directory', async () => {
    expect((await run(['call', 'read_file', 'path=notes.txt'])).stdout).toContain('hello');
    const written = await run(['call', 'write_file', '{"path": "new/file.txt", "content": "made by nexus\\n"}']);
    expect(written.code).toBe(0);
    expect(await readFile(dir.join('project', 'new', 'file.txt'), 'utf8')).toBe('made by nexus\n');
  });

  it.each([['../outside.txt'], [join('..', '..', 'etc', 'passwd')], ['link-out'], ['/etc/passwd']])(
    'refuses to read %s, outside the sandbox',
    async (path) => {
      const { code, stdout, stderr } = await run(['call', 'read_file', `path=${path}`]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^read_file failed \(forbidden\): /);
      expect(stderr).not.toContain('secret outside');
    },
  );

  it('refuses to write outside the sandbox, leaving nothing behind', async () => {
    const { code, stderr } = await run(['call', 'write_file', `path=${dir.join('planted.txt')}`, 'content=x']);
    expect(code).toBe(1);
    expect(stderr).toContain('forbidden');
    await expect(readFile(dir.join('planted.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('under --preset trusted, writes outside the working directory once confirmed on the terminal', async () => {
    const target = dir.join('approved.txt');
    const refused = await run(['call', 'write_file', `path=${target}`, 'content=x', '--preset', 'trusted'], { input: 'y\n' });
    expect(refused.code).toBe(1);
    await expect(readFile(target, 'utf8')).rejects.toThrow(/ENOENT/);
    const asked = await run(['call', 'write_file', `path=${target}`, 'content=approved', '--preset', 'trusted'], {
      input: 'y\n',
      tty: true,
    });
    expect(asked.stderr).toContain(`Allow write_file to write outside the working directory: ${target}? [y/N]`);
    expect(asked.code).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('approved');
  });

  it('widens to another directory with --allow', async () => {
    const { code, stdout } = await run(['call', 'read_file', `path=${dir.join('outside.txt')}`, '--allow', '..']);
    expect(code).toBe(0);
    expect(stdout).toContain('secret outside');
  });

  it('keeps --block paths out even when allowed', async () => {
    const { code } = await run(['call', 'read_file', 'path=notes.txt', '--block', 'notes.txt', '--preset', 'yolo']);
    expect(code).toBe(1);
  });
});
