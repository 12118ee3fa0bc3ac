import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from './run-cli.js';
import { memoryIo } from './testing/memory-io-fixture.js';
import { CLI_PATH, ensureBuilt, nexusEnv } from './testing/nexus-process-fixture.js';

let dir: TestDir;

const skillMd = (frontmatter: string, body = '# How\n\nDo it well.\n') => `---\n${frontmatter}\n---\n${body}`;

const GREETER = {
  'SKILL.md': skillMd(
    'name: greeter\ndescription: Greets people.\ncommand: "sh scripts/greet.sh {who}"\nparameters:\n  who: { type: string, required: true }',
  ),
  'README.md': '# greeter\n',
  scripts: { 'greet.sh': 'echo "hello $1"\n' },
};

beforeEach(async () => {
  dir = await testdir({
    project: { '.nexus': { skills: {} }, 'notes.txt': 'hello\n' },
    config: { nexus: { skills: { greeter: GREETER } } },
    state: {},
    home: {},
  });
});

afterEach(async () => {
  await dir.cleanup();
});

/** The user's directories of the test: config, state and home inside its temporary directory. */
const environment = () => ({ XDG_STATE_HOME: dir.join('state'), HOME: dir.join('home') });

async function run(args: string[]) {
  const memory = memoryIo({ cwd: dir.join('project'), configHome: dir.join('config'), env: environment() });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const addProjectPackage = (name: string, tree: Parameters<typeof writeTree>[1]) =>
  writeTree(dir.join('project', '.nexus', 'skills', name), tree);

describe('nexus skills', () => {
  it('lists packages with folder, root, trust, commands, usage and problems', async () => {
    await addProjectPackage('deploy', { 'SKILL.md': skillMd('name: deploy\ndescription: Deploys.\ncommand: "true"'), 'README.md': '#\n' });
    await addProjectPackage('broken', { 'SKILL.md': '---\nname: broken\n' });
    const { code, stdout } = await run(['skills', 'list']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME +FOLDER +ROOT +SHADOWS +TRUSTED +COMMANDS +USAGE +PROBLEMS$/);
    expect(lines.find((line) => line.startsWith('deploy'))).toMatch(
      /^deploy +\.nexus\/skills\/deploy +\.nexus\/skills \(project\) +- +no +deploy +- +-$/,
    );
    expect(lines.find((line) => line.startsWith('greeter'))).toMatch(
      new RegExp(
        `^greeter +${join(dir.join('config'), 'nexus', 'skills', 'greeter')} +\\$XDG_CONFIG_HOME/nexus/skills \\(user\\) +- +yes \\(user\\) +greeter +- +-$`,
      ),
    );
    expect(lines.find((line) => line.startsWith('broken'))).toMatch(
      /^broken +\.nexus\/skills\/broken +\.nexus\/skills \(project\) +- +- +- +- +1 error/,
    );
    expect(stdout).toContain('1 could not load; `nexus skills check` says why.');
    const json = JSON.parse((await run(['skills', 'list', '--json'])).stdout) as { name: string; trust: string | null }[];
    expect(json.map((entry) => [entry.name, entry.trust])).toEqual([
      ['deploy', 'untrusted'],
      ['greeter', 'user'],
      ['broken', null],
    ]);
  });

  it('checks packages: file:line:col diagnostics, notes and the checklist, exit 1 on errors', async () => {
    await addProjectPackage('bad', { 'SKILL.md': skillMd('name: bad\ndescription: Bad.\ncommand: "cat x | sh"'), 'manifest.json': '{}' });
    const { code, stdout } = await run(['skills', 'check']);
    expect(code).toBe(1);
    const file = dir.join('project', '.nexus', 'skills', 'bad', 'SKILL.md');
    expect(stdout).toContain(`${file}:4:10: error: the template contains the pipe \`|\` at position 7`);
    expect(stdout).toContain(`${dir.join('project', '.nexus', 'skills', 'bad', 'README.md')}:1:1: warning: no README.md`);
    expect(stdout).toContain(
      `${dir.join('project', '.nexus', 'skills', 'bad', 'manifest.json')}:1:1: warning: manifest.json is deprecated`,
    );
    expect(stdout).toContain(`${file}:4:10: note: not portable: other clients reject the key \`command\``);
    expect(stdout).toMatch(/2 packages checked: 1 error, \d+ warnings?, \d+ notes?\.\n$/);

    const one = await run(['skills', 'check', join(dir.join('config'), 'nexus', 'skills', 'greeter')]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/1 package checked: 0 errors, 0 warnings, 1 note\.\n$/);
    expect((await run(['skills', 'check', 'notes.txt'])).code).toBe(2);
  });

  it('creates a package that passes the check, then trusts and runs it; an edit untrusts it', async () => {
    const created = await run(['skills', 'new', 'weekly-report']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created ${dir.join('project', '.nexus', 'skills', 'weekly-report')}/`);
    const check = await run(['skills', 'check', '.nexus/skills/weekly-report']);
    expect(check.stdout).toMatch(/1 package checked: 0 errors, 0 warnings, 0 notes\.\n$/);

    const untrusted = await run(['skills', 'run', 'weekly-report.hello', 'who=Ada', '--preset', 'trusted']);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain('❌ skills Untrusted: weekly-report: the project skill is not trusted');

    const trusted = await run(['skills', 'trust', 'weekly-report']);
    expect(trusted.stdout).toMatch(/^Trusted weekly-report \(.*\) as it is now \(sha256 [0-9a-f]{12}…\)/);
    const ran = await run(['skills', 'run', 'weekly-report.hello', 'who=Ada', '--preset', 'trusted']);
    expect(ran.stderr).toBe('');
    expect(ran.stdout.split('\n')[0]).toBe('✅ skills weekly-report: hello → Hello, Ada!');

    const script = dir.join('project', '.nexus', 'skills', 'weekly-report', 'scripts', 'commands.mjs');
    await writeFile(script, (await readFile(script, 'utf8')).replace('Hello', 'Goodbye'));
    const list = await run(['skills', 'list']);
    expect(list.stdout.split('\n').find((line) => line.startsWith('weekly-report'))).toContain('no (changed)');
    expect((await run(['skills', 'run', 'weekly-report.hello', 'who=Ada', '--preset', 'trusted'])).code).toBe(1);
  });

  it('says with check --portable whether each package loads in every client as it is, typed commands kept in agents/nexus.yaml', async () => {
    await addProjectPackage('portable-one', {
      'SKILL.md': skillMd('name: portable-one\ndescription: Keeps its command beside SKILL.md.'),
      'README.md': '#\n',
      agents: { 'nexus.yaml': 'command: "echo hi"\ncategory: read\n' },
    });
    const portable = await run(['skills', 'check', '--portable', '.nexus/skills/portable-one']);
    expect(portable.stdout).toContain('portable-one: portable\n');
    expect(portable.code).toBe(0);
    const all = await run(['skills', 'check', '--portable']);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('greeter: not portable: SKILL.md has the keys `command`, `parameters` (move them to agents/nexus.yaml)\n');
    const json = JSON.parse((await run(['skills', 'check', '--portable', '--json'])).stdout) as { portability: unknown[] };
    expect(json.portability).toEqual(
      expect.arrayContaining([
        { name: 'portable-one', folder: dir.join('project', '.nexus', 'skills', 'portable-one'), portable: true, problems: [] },
      ]),
    );
    expect((await run(['skills', 'list', '--portable'])).stderr).toContain('--portable only applies to `nexus skills check`');
  });

  it('creates a Python package with --python, which checks clean and runs', async () => {
    const created = await run(['skills', 'new', 'py-report', '--user', '--python']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('SKILL.md  README.md  scripts/__init__.py  scripts/commands.py');
    const check = await run(['skills', 'check', dir.join('config', 'nexus', 'skills', 'py-report')]);
    expect(check.stdout).toMatch(/1 package checked: 0 errors, 0 warnings, 0 notes\.\n$/);
    const ran = await run(['skills', 'run', 'py-report.hello', 'who=Ada', '--preset', 'yolo']);
    expect(ran.stderr).toBe('');
    expect(ran.stdout.split('\n')[0]).toBe('✅ skills py-report: hello → Hello, Ada!');
    expect((await run(['skills', 'list', '--python'])).stderr).toContain('--python only applies to `nexus skills new`');
  });

  // At yolo: at trusted the command would run inside bubblewrap, whose private /tmp hides this
  // test's user skills folder (a user's real one, under the home directory, stays visible).
  it('runs a user skill with key=value arguments and records its usage', async () => {
    const ran = await run(['skills', 'run', 'greeter', 'who=-x y', '--preset', 'yolo']);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('ParamInvalid');
    const ok = await run(['skills', 'run', 'greeter', 'who=Grace Hopper', '--preset', 'yolo', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ success: true, data: { state: 'success', data: { stdout: 'hello Grace Hopper\n' } } });
    const pending = await run(['skills', 'run', 'greeter', '--preset', 'trusted']);
    expect(pending.stderr.split('\n')[0]).toBe('⏸️ skills ParamMissing: greeter: run needs who');
    const missing = await run(['skills', 'run', 'nobody', '--preset', 'trusted']);
    expect(missing.stderr).toContain('❌ skills SkillNotFound: nobody: No skill package is named "nobody"');
    // The usage record is written in the background, after the result.
    await vi.waitFor(async () =>
      expect(JSON.parse(await readFile(join(dir.join('state'), 'nexus', 'skills-usage.json'), 'utf8'))).toMatchObject({
        greeter: { count: 1 },
      }),
    );
    const list = await run(['skills', 'list']);
    expect(list.stdout.split('\n').find((line) => line.startsWith('greeter'))).toMatch(/ 1 \(last \d{4}-\d\d-\d\d\) /);
  });

  it('says which folder each package came from and what it shadows, and the config turns folders off', async () => {
    await writeTree(dir.join('home', '.claude', 'skills'), {
      shared: { 'SKILL.md': skillMd('name: shared\ndescription: The user one.'), 'README.md': '#\n' },
    });
    await writeTree(dir.join('project', '.github', 'skills'), {
      shared: { 'SKILL.md': skillMd('name: shared\ndescription: The project one.'), 'README.md': '#\n' },
    });
    const { code, stdout } = await run(['skills', 'list']);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME +FOLDER +ROOT +SHADOWS +TRUSTED +COMMANDS +USAGE +PROBLEMS$/);
    const rows = lines.filter((line) => line.startsWith('shared') || line.startsWith('greeter'));
    expect(rows[0]).toMatch(/^shared +\.github\/skills\/shared +\.github\/skills \(project\) +~\/\.claude\/skills\/shared +no +- +- +-$/);
    expect(rows[1]).toMatch(/^greeter +\S+ +\$XDG_CONFIG_HOME\/nexus\/skills \(user\) +- +yes \(user\)/);
    expect(rows[2]).toMatch(/^shared +~\/\.claude\/skills\/shared +~\/\.claude\/skills \(user, shadowed\) +- +yes \(user\)/);
    const json = JSON.parse((await run(['skills', 'list', '--json'])).stdout) as { name: string; source: string; shadows: string[] }[];
    expect(json.map((entry) => [entry.name, entry.source, entry.shadows])).toEqual([
      ['shared', '.github/skills', [dir.join('home', '.claude', 'skills', 'shared')]],
      ['greeter', '$XDG_CONFIG_HOME/nexus/skills', []],
      ['shared', '~/.claude/skills', []],
    ]);

    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ skills: { folders: { '.github/skills': false } } }),
    });
    const off = await run(['skills', 'list', '--json']);
    expect(JSON.parse(off.stdout).map((entry: { source: string }) => entry.source)).toEqual([
      '$XDG_CONFIG_HOME/nexus/skills',
      '~/.claude/skills',
    ]);
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ skills: { folders: { '~/.cursor/skills': false } } }),
    });
    const unknown = await run(['skills', 'list']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('`skills.folders`: no skill folder is named "~/.cursor/skills"');
    await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': '{}' });
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ skills: { folders: { '~/.claude/skills': true } } }) });
    const widening = await run(['skills', 'list']);
    expect(widening.code).toBe(2);
    expect(widening.stderr).toContain('`skills.folders.~/.claude/skills` is not allowed here');
  });

  it('runs a package the model may not invoke (disable-model-invocation: true), which the model is not offered', async () => {
    await writeTree(dir.join('config', 'nexus', 'skills', 'deploy'), {
      'SKILL.md': skillMd('name: deploy\ndescription: Deploys.\ndisable-model-invocation: true\ncommand: "echo deployed"'),
      'README.md': '#\n',
    });
    const tools = JSON.parse((await run(['tools', '--json', '--families', 'skills', '--preset', 'trusted'])).stdout);
    expect(tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['skill', 'skill_search', 'greeter']);
    const listed = await run(['skills', 'list']);
    expect(listed.stdout.split('\n').find((line) => line.startsWith('deploy'))).toMatch(/ deploy \(people only\) /);
    const json = JSON.parse((await run(['skills', 'list', '--json'])).stdout) as { name: string; hiddenFromModel: boolean }[];
    expect(json.find((entry) => entry.name === 'deploy')?.hiddenFromModel).toBe(true);
    const ran = await run(['skills', 'run', 'deploy', '--preset', 'trusted']);
    expect(ran.stderr).toBe('');
    expect(ran.stdout.split('\n')[0]).toBe('✅ skills deploy: run → deployed');
  });

  it('refuses bad usage', async () => {
    expect((await run(['skills'])).stderr).toContain('Missing the action');
    expect((await run(['skills', 'trust'])).code).toBe(2);
    expect((await run(['skills', 'list', '--user'])).stderr).toContain('--user only applies to `nexus skills new`');
    expect((await run(['skills', 'new', 'Bad_Name'])).stderr).toContain('Expected a skill name of lowercase letters');
  });

  it('loads at most skills.maxLoaded packages, pinned ones first, and lists the others as ghosts', async () => {
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({ skills: { maxLoaded: 1, pinned: ['zeta'] } }),
      skills: { zeta: { 'SKILL.md': skillMd('name: zeta\ndescription: Pinned one.\ncommand: "true"'), 'README.md': '#\n' } },
    });
    const listed = JSON.parse((await run(['tools', '--json', '--families', 'skills', '--preset', 'trusted'])).stdout) as {
      function: { name: string; description: string };
    }[];
    const description = (name: string) => listed.find((tool) => tool.function.name === name)?.function.description;
    expect(description('zeta')).toBe('Pinned one.');
    expect(description('greeter')).toMatch(/^\[GHOST\] Greets people\./);
    await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify({ skills: { maxLoaded: 0 } }) });
    const refused = await run(['tools', '--families', 'skills']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('skills.maxLoaded');
  });

  it('offers the skills family only when enabled, and a project config cannot add trusted roots', async () => {
    expect(
      JSON.parse((await run(['tools', '--json'])).stdout).map((tool: { function: { name: string } }) => tool.function.name),
    ).not.toContain('greeter');
    const enabled = JSON.parse((await run(['tools', '--json', '--families', 'skills', '--preset', 'trusted'])).stdout);
    expect(enabled.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['skill', 'skill_search', 'greeter']);
    await writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify({ skills: { roots: ['/tmp'] } }) });
    const refused = await run(['skills', 'list']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('`skills.roots` is not allowed here');
  });
});

describe('nexus mcp with the skills family, with the SDK client', () => {
  const clients: Client[] = [];
  beforeAll(ensureBuilt, 180_000);
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  /** An SDK client of `nexus mcp --families fs,skills --preset <preset>` in the project. */
  async function mcpClient(preset: string): Promise<Client> {
    const client = new Client({ name: 'skills-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp', '--families', 'fs,skills', '--preset', preset],
        cwd: dir.join('project'),
        env: nexusEnv(dir.join('config'), environment()),
      }),
    );
    clients.push(client);
    return client;
  }
  const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0]?.text ?? '';

  it('serves a skill folder as Claude Code writes one at sandboxed: its instructions, then its references, read-only', async () => {
    const folder = dir.join('home', '.claude', 'skills', 'release-notes');
    await writeTree(folder, {
      'SKILL.md': skillMd(
        'name: release-notes\ndescription: Write release notes from the git log.',
        '# Release notes\n\nFollow references/style.md. Run scripts/collect.sh to gather the commits.\n',
      ),
      references: { 'style.md': 'One line per change.\n' },
      scripts: { 'collect.sh': 'git log --oneline\n' },
    });
    const client = await mcpClient('sandboxed');
    const style = join(folder, 'references', 'style.md');
    const before = await client.callTool({ name: 'read_file', arguments: { path: style } });
    expect(before.isError).toBe(true);
    const instructions = await client.callTool({ name: 'skill', arguments: { name: 'release-notes' } });
    expect(text(instructions)).toContain('Follow references/style.md.');
    expect(text(instructions)).toContain('- references/style.md');
    const read = await client.callTool({ name: 'read_file', arguments: { path: style } });
    expect(read.isError, text(read)).toBeFalsy();
    expect(text(read)).toContain('One line per change.');
    const write = await client.callTool({ name: 'write_file', arguments: { path: style, content: 'changed' } });
    expect(write.isError).toBe(true);
    expect(await readFile(style, 'utf8')).toBe('One line per change.\n');
    const greeter = await client.callTool({
      name: 'read_file',
      arguments: { path: dir.join('config', 'nexus', 'skills', 'greeter', 'SKILL.md') },
    });
    expect(greeter.isError).toBe(true);
  });

  it('enforces allowed-tools: after the skill call only the tools it names are accepted; nexus skills check names the unmapped ones', async () => {
    await writeTree(dir.join('home', '.claude', 'skills', 'reviewer'), {
      'SKILL.md': skillMd('name: reviewer\ndescription: Reviews code without changing it.\nallowed-tools: Read Grep WebFetch'),
    });
    const checked = await run(['skills', 'check']);
    expect(checked.stdout).toContain('warning: `allowed-tools`: `WebFetch` maps to no Nexus tool');
    const client = await mcpClient('yolo');
    const taken = await client.callTool({ name: 'skill', arguments: { name: 'reviewer' } });
    expect(text(taken)).toContain('only these tools are available: read_file, tail, file_info, grep, skill, skill_search.');
    const offered = (await client.listTools()).tools.map((tool) => tool.name);
    expect(offered).toEqual(expect.arrayContaining(['read_file', 'grep', 'skill']));
    expect(offered).not.toContain('write_file');
    const write = await client.callTool({ name: 'write_file', arguments: { path: 'notes.txt', content: 'changed' } });
    expect(write.isError).toBe(true);
    expect(text(write)).toContain('Tool "write_file" is not one of the tools the skill "reviewer" allows');
    expect(await readFile(dir.join('project', 'notes.txt'), 'utf8')).toBe('hello\n');
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
    expect(text(read)).toContain('hello');
  });

  it('lists and calls a package’s tools, and says on stderr which package did not load', async () => {
    await addProjectPackage('broken', { 'SKILL.md': '---\nname: broken\ndescription: "open\n---\n' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp', '--families', 'skills', '--preset', 'yolo'],
      cwd: dir.join('project'),
      env: nexusEnv(dir.join('config'), environment()),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'skills-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['skill', 'skill_search', 'greeter']);
    const result = await client.callTool({ name: 'greeter', arguments: { who: 'MCP' } });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { text: string }[])[0]?.text ?? '';
    expect(text.split('\n')[0]).toBe('✅ skills greeter: run → hello MCP');
    const instructions = await client.callTool({ name: 'skill', arguments: { name: 'greeter' } });
    expect((instructions.content as { text: string }[])[0]?.text).toContain(
      '<skill_content name="greeter">\n# How\n\nDo it well.\n</skill_content>',
    );
    expect(stderr).toContain(
      `nexus: skill package not loaded: ${dir.join('project', '.nexus', 'skills', 'broken', 'SKILL.md')}:3:19: error:`,
    );
  });
});
