import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bubblewrapSkipReason, processesWithArgument } from '@nexus/process/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executable, type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';
import { readSkillUsage } from './usage-records.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

type Result = Awaited<ReturnType<Awaited<ReturnType<SkillWorld['agent']>>['call']>>;
const state = (result: Result) => result.data as Record<string, unknown> & { data: Record<string, unknown> };

const CONVERTER = skillPackage(
  `name: markdown-converter
description: Convert Markdown to HTML.
command: "python3 scripts/convert.py {input} --to {format} --out {output}"
parameters:
  input: { type: path, required: true, description: Markdown file to convert }
  format: { type: string, enum: [html, txt], default: html }
  output: { type: output_path, description: Where to write the result }
timeout: 30
category: write`,
  {
    scripts: {
      'convert.py': [
        'import sys',
        'args = sys.argv[1:]',
        'source, fmt, out = args[0], args[2], args[4]',
        'text = open(source).read()',
        'open(out, "w").write("<p>" + text.strip() + "</p>" if fmt == "html" else text)',
        'print("converted", source, "to", fmt)',
      ].join('\n'),
    },
  },
);

describe('a command skill, run through the registry', () => {
  it('runs python with the template split once, the package file made absolute, and answers in two lines (success)', async () => {
    await world.addUserPackages({ 'md-tools-v1': CONVERTER });
    await writeFile(join(world.cwd, 'README.md'), '# Title; $(not a command) `x` | y\n');
    const agent = await world.agent({ preset: 'yolo' });
    const result = await agent.call('markdown-converter', { input: 'README.md' });
    expect(result.success, result.error).toBe(true);
    const [header, details] = result.output.split('\n');
    expect(header).toMatch(/^✅ skills markdown-converter: run → mybox\/output\/markdown-converter-run-\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(details).toMatch(
      /^ {2}state: success \| data: \{.*"output_path":"mybox\/output\/.*"output_size":"\d+B".*\} \| meta: \{"agent":"skills","time":[\d.]+,"ts":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\}$/,
    );
    const data = state(result);
    expect(data).toMatchObject({ state: 'success', skill: 'markdown-converter', command: 'run', meta: { agent: 'skills' } });
    const written = await readFile(join(world.cwd, data.data.output_path as string), 'utf8');
    expect(written).toBe('<p># Title; $(not a command) `x` | y</p>');
    expect(data.data.stdout).toBe(`converted ${join(world.cwd, 'README.md')} to html\n`);
    await vi.waitFor(async () =>
      expect((await readSkillUsage(world.stateDirectory))['markdown-converter']).toMatchObject({
        count: 1,
        commands: { run: { count: 1 } },
      }),
    );
  });

  it('asks before a write-category command at trusted, and refuses without an answer', async () => {
    await world.addUserPackages({ 'md-tools-v1': CONVERTER });
    await writeFile(join(world.cwd, 'notes.md'), 'hi\n');
    const refused = await (await world.agent()).call('markdown-converter', { input: 'notes.md', output: 'out.html' });
    expect(refused.kind).toBe('forbidden');
    expect(existsSync(join(world.cwd, 'out.html'))).toBe(false);
    const agent = await world.agent({ confirm: true });
    const result = await agent.call('markdown-converter', { input: 'notes.md', output: 'out.html', format: 'txt' });
    expect(result.success, result.error).toBe(true);
    expect(agent.confirmations[0]?.action).toContain('--to txt --out');
    expect(await readFile(join(world.cwd, 'out.html'), 'utf8')).toBe('hi\n');
  });

  it('answers pending, naming the missing parameter, without running anything (a missing required parameter)', async () => {
    await world.addUserPackages({ 'md-tools-v1': CONVERTER });
    const result = await (await world.agent({ preset: 'yolo' })).call('markdown-converter', { format: 'txt' });
    expect(result.success).toBe(false);
    expect(result.kind).toBe('invalid_input');
    expect(result.recoverable).toBe(true);
    expect(result.error.split('\n')[0]).toBe('⏸️ skills ParamMissing: markdown-converter: run needs input');
    expect(state(result)).toMatchObject({
      state: 'pending',
      error_type: 'ParamMissing',
      recoverable: true,
      data: { required: ['input'], optional: ['format', 'output'] },
    });
    expect(existsSync(join(world.cwd, 'mybox'))).toBe(false);
  });

  it('reports a non-zero exit with its code and stderr (RuntimeFailed), and records no usage', async () => {
    await world.addUserPackages({
      failing: skillPackage('name: failing\ndescription: Fails.\ncommand: "sh scripts/fail.sh"', {
        scripts: { 'fail.sh': 'echo "partial output"\necho "disk on fire" >&2\nexit 3\n' },
      }),
    });
    const result = await (await world.agent()).call('failing');
    expect(result.kind).toBe('execution_failed');
    expect(result.error.split('\n')[0]).toBe('❌ skills RuntimeFailed: failing: run failed (exit 3): disk on fire');
    expect(state(result)).toMatchObject({
      state: 'error',
      error_type: 'RuntimeFailed',
      recoverable: null,
      data: { exit_code: 3, stderr: 'disk on fire\n', stdout: 'partial output\n' },
    });
    expect(await readSkillUsage(world.stateDirectory)).toEqual({});
  });

  it('stops a command that hangs at its limit, with elapsed and limit, and leaves no process (Timeout)', async () => {
    const marker = `600.${randomUUID().replace(/\D/g, '').slice(0, 8)}`;
    await world.addUserPackages({
      hang: skillPackage(`name: hang\ndescription: Hangs.\ncommand: "sh scripts/hang.sh"\ntimeout: 1`, {
        scripts: { 'hang.sh': `sleep ${marker} &\nsleep ${marker}\n` },
      }),
    });
    const result = await (await world.agent()).call('hang');
    expect(result.kind).toBe('timeout');
    expect(result.recoverable).toBe(true);
    expect(result.error.split('\n')[0]).toBe('⏱️ skills Timeout: hang: run did not finish within 1 s and was stopped');
    expect(state(result)).toMatchObject({ state: 'timeout', error_type: 'Timeout', recoverable: true, data: { limit: 1 } });
    expect(state(result).data.elapsed).toBeGreaterThanOrEqual(1);
    expect(processesWithArgument(marker)).toEqual([]);
  });

  it('answers SkillNotFound for a word that names no package, and MetadataMissing for a broken one', async () => {
    await world.addUserPackages({ broken: { 'SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n' } });
    const agent = await world.agent();
    const missing = await agent.loaded.call(agent.registry, 'nope');
    expect(missing.kind).toBe('not_found');
    expect(missing.recoverable).toBe(true);
    expect(state(missing)).toMatchObject({ state: 'error', error_type: 'SkillNotFound', recoverable: true });
    const broken = await agent.loaded.call(agent.registry, 'broken');
    expect(broken.kind).toBe('execution_failed');
    expect(broken.recoverable).toBe(false);
    expect(state(broken)).toMatchObject({ state: 'error', error_type: 'MetadataMissing', recoverable: false });
  });

  it('answers MetadataMissing when SKILL.md went away after loading, and SkillNotFound when the whole folder did', async () => {
    await world.addUserPackages({
      one: skillPackage('name: one\ndescription: One.\ncommand: "true"'),
      two: skillPackage('name: two\ndescription: Two.\ncommand: "true"'),
    });
    const agent = await world.agent();
    await rm(join(world.userRoot, 'one', 'SKILL.md'));
    await rm(join(world.userRoot, 'two'), { recursive: true });
    expect(state(await agent.call('one'))).toMatchObject({ error_type: 'MetadataMissing', recoverable: false });
    expect(state(await agent.call('two'))).toMatchObject({ error_type: 'SkillNotFound', recoverable: true });
  });

  it('runs node programs and drops an absent optional argument together with its flag', async () => {
    await world.addUserPackages({
      show: skillPackage(
        'name: show\ndescription: Shows its arguments.\ncommand: "node ./lib/show.js --label {label} -v --count={count} {word}"\nparameters:\n  label: { type: string }\n  count: { type: integer, default: 2 }\n  word: { type: string, required: true }',
        { lib: { 'show.js': 'console.log(JSON.stringify(process.argv.slice(2)))' } },
      ),
    });
    const agent = await world.agent();
    const without = await agent.call('show', { word: 'a b' });
    expect(JSON.parse(state(without).data.stdout as string)).toEqual(['-v', '--count=2', 'a b']);
    const withLabel = await agent.call('show', { word: '$HOME', label: "it's; rm -rf /", count: '5' });
    expect(JSON.parse(state(withLabel).data.stdout as string)).toEqual(['--label', "it's; rm -rf /", '-v', '--count=5', '$HOME']);
  });

  it('runs {skill_dir} programs and never changes the working directory', async () => {
    await world.addUserPackages({
      where: skillPackage('name: where\ndescription: Where.\ncommand: "{skill_dir}/scripts/where.sh"', {
        scripts: { 'where.sh': executable('#!/bin/sh\npwd\n') },
      }),
    });
    const result = await (await world.agent()).call('where');
    expect(state(result).data.stdout).toBe(`${world.cwd}\n`);
  });

  it('runs with the sanitised environment', async () => {
    process.env.NEXUS_TEST_API_KEY = 'planted-secret';
    try {
      await world.addUserPackages({ env: skillPackage('name: env\ndescription: Env.\ncommand: "env"') });
      const result = await (await world.agent()).call('env');
      expect(state(result).data.stdout).toContain('PATH=');
      expect(state(result).data.stdout).not.toContain('planted-secret');
    } finally {
      delete process.env.NEXUS_TEST_API_KEY;
    }
  });
});

describe('bad input to a command', () => {
  const ECHO = skillPackage(
    'name: say\ndescription: Says things.\ncommand: "echo {text} --file {file}"\nparameters:\n  text: { type: string, required: true }\n  file: { type: path }\n  dashing: { type: string, allow_dash: true }',
  );
  const DASH = skillPackage(
    'name: dash\ndescription: Dash.\ncommand: "echo {text}"\nparameters:\n  text: { type: string, required: true, allow_dash: true }',
  );

  it('refuses a value starting with "-" in a standalone placeholder, unless allow_dash', async () => {
    await world.addUserPackages({ say: ECHO, dash: DASH });
    const agent = await world.agent();
    const refused = await agent.call('say', { text: '--output=/etc/passwd' });
    expect(refused.kind).toBe('invalid_input');
    expect(state(refused)).toMatchObject({ error_type: 'ParamInvalid', data: { parameter: 'text' } });
    expect(refused.error).toContain('`text` starts with "-"');
    expect(state(await agent.call('dash', { text: '-n' })).state).toBe('success');
  });

  it('refuses a NUL byte, a newline or a carriage return in a value', async () => {
    await world.addUserPackages({ say: ECHO });
    const agent = await world.agent();
    for (const text of ['a\0b', 'a\nb', 'a\rb']) {
      const result = await agent.call('say', { text });
      expect(result.kind, JSON.stringify(text)).toBe('invalid_input');
      expect(state(result).error_type).toBe('ParamInvalid');
    }
  });

  it('refuses a path parameter outside the sandbox, and turns a relative one into the real path', async () => {
    await world.addUserPackages({ say: ECHO });
    await writeFile(join(world.cwd, 'inside.txt'), 'x');
    const agent = await world.agent({ tools: { say: { allowedPaths: [world.cwd] } } });
    for (const file of ['../state/x', '/etc/passwd', 'in\0side.txt']) {
      const result = await agent.call('say', { text: 'hi', file });
      expect(result.success, file).toBe(false);
      expect(['forbidden', 'invalid_input']).toContain(result.kind);
    }
    expect((await agent.call('say', { text: 'hi', file: '../state/x' })).kind).toBe('forbidden');
    const inside = await agent.call('say', { text: 'hi', file: 'inside.txt' });
    expect(state(inside).data.stdout).toBe(`hi --file ${join(world.cwd, 'inside.txt')}\n`);
  });

  it('keeps memory bounded when a command prints a gigabyte', async () => {
    await world.addUserPackages({ flood: skillPackage('name: flood\ndescription: Floods.\ncommand: "head -c 1073741824 /dev/zero"') });
    const agent = await world.agent();
    const before = process.memoryUsage().rss;
    const result = await agent.call('flood');
    expect(state(result).state).toBe('success');
    expect((state(result).data.stdout as string).length).toBeLessThan(1_100_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);

  it('does not offer commands below the trusted level', async () => {
    await world.addUserPackages({ say: ECHO });
    const agent = await world.agent({ preset: 'sandboxed' });
    expect((await agent.call('say', { text: 'hi' })).kind).toBe('forbidden');
  });
});

const noBubblewrap = await bubblewrapSkipReason();

describe.skipIf(noBubblewrap !== '')(`a command skill inside bubblewrap${noBubblewrap}`, () => {
  it('runs a package whose folder is under /tmp, behind the private /tmp, and keeps that folder read-only', async () => {
    await world.addUserPackages({
      hello: skillPackage(
        'name: hello\ndescription: Says hello.\ncommands:\n  shell:\n    command: "./scripts/hello.sh {who}"\n    parameters:\n      who: { required: true }',
        {
          scripts: {
            'hello.sh': executable('touch "$(dirname "$0")/touched" 2>/dev/null || echo "read-only"; echo "hello $1"\n'),
            'commands.mjs': "export const greet = { name: 'greet', description: 'Greets.', run: () => 'greetings' };\n",
          },
        },
      ),
    });
    expect(world.userRoot.startsWith('/tmp/')).toBe(true);
    const agent = await world.agent({ services: { exec: { sandbox: 'bubblewrap' } } });
    const shell = await agent.call('hello__shell', { who: 'Ada' });
    expect(shell.success, shell.error).toBe(true);
    expect(state(shell).data.stdout).toBe('read-only\nhello Ada\n');
    expect(existsSync(join(world.userRoot, 'hello', 'scripts', 'touched'))).toBe(false);
    const greet = await agent.call('hello__greet');
    expect(greet.success, greet.error).toBe(true);
    expect(state(greet).data.result).toBe('greetings');
  });
});
