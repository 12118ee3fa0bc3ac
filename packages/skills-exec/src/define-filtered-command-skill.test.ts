import { type ConfirmationRequest, type PermissionLevel, ServiceContainer, ToolResult } from '@nexus/core';
import { createTestAgent, type TestAgent } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CommandFilter,
  type CommandInvocation,
  defineFilteredCommandSkill,
  type FilteredCommandContext,
  type FilteredCommandSkillDefinition,
  findCommandRefusal,
} from './define-filtered-command-skill.js';

let dir: TestDir;
let outside: TestDir;
beforeEach(async () => {
  // A stand-in program that prints its arguments and working directory.
  dir = await testdir({ project: {}, 'tool.sh': { content: '#!/bin/sh\necho "args:$*"\necho "cwd:$(pwd)"\n', mode: 0o755 } });
  outside = await testdir();
});
afterEach(async () => {
  await dir.cleanup();
  await outside.cleanup();
});

const filter: CommandFilter = {
  readOnlyCommands: ['list', 'show'],
  blockedPatterns: [
    { pattern: /^delete .*--force\b/, reason: 'force delete loses data' },
    { pattern: (invocation) => invocation.parsed.subcommand === 'drop', reason: 'dropping is irreversible' },
  ],
};

function createAgent(
  preset: PermissionLevel,
  confirm?: boolean | ((request: ConfirmationRequest) => boolean),
  extra: Partial<FilteredCommandSkillDefinition> = {},
): TestAgent {
  const skill = defineFilteredCommandSkill({
    name: 'tool',
    description: 'A filtered stand-in tool.',
    program: dir.join('tool.sh'),
    filter,
    ...extra,
  });
  return createTestAgent({ cwd: dir.join('project'), preset, confirm, families: [{ name: 'test', skills: [skill] }] });
}

describe('findCommandRefusal', () => {
  const invocation = (line: string): CommandInvocation => ({ argv: line.split(' '), parsed: { subcommand: line.split(' ')[0] } });

  it('lets sandboxed run read-only commands only', () => {
    expect(findCommandRefusal(filter, 'sandboxed', invocation('list -a'))).toBeUndefined();
    expect(findCommandRefusal(filter, 'sandboxed', invocation('create x'))).toBe(
      '`create x` is not a read-only command; only read-only commands (list, show) run at the sandboxed level.',
    );
  });

  it('lets trusted run everything but the blocked patterns, each with its reason', () => {
    expect(findCommandRefusal(filter, 'trusted', invocation('create x'))).toBeUndefined();
    expect(findCommandRefusal(filter, 'trusted', invocation('delete x --force'))).toBe(
      '`delete x --force` is blocked below yolo: force delete loses data',
    );
    expect(findCommandRefusal(filter, 'trusted', invocation('drop all'))).toContain('dropping is irreversible');
    expect(findCommandRefusal(filter, 'sandboxed', invocation('drop all'))).toContain('dropping is irreversible');
  });

  it('lets yolo run everything', () => {
    expect(findCommandRefusal(filter, 'yolo', invocation('delete x --force'))).toBeUndefined();
  });
});

describe('defineFilteredCommandSkill', () => {
  it('runs the program without a shell, dropping a leading program name', async () => {
    const agent = createAgent('sandboxed');
    const program = dir.join('tool.sh');
    expect(await agent.call('tool', { command: 'list "two words"' })).toMatchObject({
      success: true,
      output: `args:list two words\ncwd:${dir.join('project')}`,
    });
    expect(await agent.call('tool', { command: `${program} show x` })).toMatchObject({
      output: expect.stringContaining('args:show x'),
    });
    expect(await agent.call('tool', { command: 'list; rm -rf /' })).toMatchObject({ kind: 'invalid_input' });
    expect(await agent.call('tool', { command: program })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('no arguments'),
    });
  });

  it('filters by level, with the default parser finding the subcommand', async () => {
    expect(await createAgent('sandboxed').call('tool', { command: 'create x' })).toMatchObject({ kind: 'forbidden' });
    expect(await createAgent('sandboxed').call('tool', { command: '--verbose list' })).toMatchObject({ success: true });
    expect(await createAgent('trusted').call('tool', { command: 'create x' })).toMatchObject({ success: true });
    expect(await createAgent('trusted').call('tool', { command: 'delete x --force' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringContaining('force delete loses data'),
    });
    expect(await createAgent('trusted').call('tool', { command: '-q drop all' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringContaining('dropping is irreversible'),
    });
    expect(await createAgent('yolo').call('tool', { command: 'delete x --force' })).toMatchObject({ success: true });
  });

  it('treats a missing policy as sandboxed', async () => {
    const spec = defineFilteredCommandSkill({ name: 'tool', description: 'd', program: dir.join('tool.sh'), filter });
    const skill = spec.factory(new ServiceContainer().register('cwd', dir.join('project')));
    expect(await skill.execute({ command: 'create x' })).toMatchObject({ kind: 'forbidden' });
    expect(await skill.execute({ command: 'list' })).toMatchObject({ success: true });
  });

  it('validates cwd: read access for read-only commands, write access (confirmed at trusted) otherwise', async () => {
    expect(await createAgent('sandboxed').call('tool', { command: 'list', cwd: outside.path })).toMatchObject({ kind: 'forbidden' });
    expect(await createAgent('trusted').call('tool', { command: 'list', cwd: outside.path })).toMatchObject({ success: true });
    const refusing = createAgent('trusted', false);
    expect(await refusing.call('tool', { command: 'create x', cwd: outside.path })).toMatchObject({ kind: 'forbidden' });
    expect(refusing.confirmations).toEqual([
      { tool: 'tool', action: `write outside the working directory: ${outside.path}`, path: outside.path },
    ]);
    expect(await createAgent('trusted', true).call('tool', { command: 'create x', cwd: outside.path })).toMatchObject({
      output: expect.stringContaining(`cwd:${outside.path}`),
    });
  });

  it("asks the call's own confirm before the confirm service", async () => {
    const agent = createAgent('trusted', false);
    const asked: ConfirmationRequest[] = [];
    const result = await agent.call(
      'tool',
      { command: 'create x', cwd: outside.path },
      { confirm: (request) => (asked.push(request), true) },
    );
    expect(result).toMatchObject({ success: true, output: expect.stringContaining(`cwd:${outside.path}`) });
    expect(asked).toEqual([{ tool: 'tool', action: `write outside the working directory: ${outside.path}`, path: outside.path }]);
    expect(agent.confirmations).toEqual([]);
  });

  it('lets prepare rewrite the arguments and present shape the result', async () => {
    const seen: FilteredCommandContext[] = [];
    const agent = createAgent('trusted', undefined, {
      parse: (argv) => ({ subcommand: argv.at(-1) }),
      prepare: (context) => (seen.push(context), { args: ['--hardened', ...context.invocation.argv], env: { TOOL_MODE: 'safe' } }),
      present: (result) => ToolResult.ok(`custom: ${result.stdout}`, { lines: result.stdout.split('\n').length }),
    });
    const result = await agent.call('tool', { command: 'x list' });
    expect(result).toMatchObject({ output: expect.stringContaining('custom: args:--hardened x list'), data: { lines: 3 } });
    expect(seen[0]).toMatchObject({
      invocation: { argv: ['x', 'list'], parsed: { subcommand: 'list' } },
      level: 'trusted',
      readOnly: true,
      cwd: dir.join('project'),
    });
  });
});

describe('the parse hook', () => {
  interface Words {
    readonly subcommand: string | undefined;
    readonly words: number;
  }

  /** A skill over `/bin/echo` whose every hook records the parsed form it was handed. */
  function countingAgent(preset: PermissionLevel) {
    const parsedForms: Words[] = [];
    const seen = new Set<Words>();
    const skill = defineFilteredCommandSkill<Words>({
      name: 'echo',
      description: 'Echo words.',
      program: '/bin/echo',
      parse: (argv) => {
        const parsed = { subcommand: argv[0], words: argv.length };
        parsedForms.push(parsed);
        return parsed;
      },
      filter: {
        readOnlyCommands: ({ parsed }) => (seen.add(parsed), parsed.words < 4),
        blockedPatterns: [
          { pattern: ({ parsed }) => (seen.add(parsed), parsed.subcommand === 'drop'), reason: 'dropping is irreversible' },
          { pattern: ({ parsed }) => (seen.add(parsed), parsed.words > 5), reason: 'too many words' },
          { pattern: /^shout\b/, reason: 'no shouting' },
        ],
      },
      prepare: ({ invocation }) => (seen.add(invocation.parsed), { args: [...invocation.argv, `(${invocation.parsed.words} words)`] }),
      present: (result, { invocation }) => (seen.add(invocation.parsed), ToolResult.ok(result.stdout.trim())),
    });
    const agent = createTestAgent({ cwd: dir.join('project'), preset, families: [{ name: 'test', skills: [skill] }] });
    return { agent, parsedForms, seen };
  }

  it.each(['sandboxed', 'trusted', 'yolo'] as const)('parses once per call at %s and hands every hook that parsed form', async (preset) => {
    const { agent, parsedForms, seen } = countingAgent(preset);
    expect(await agent.call('echo', { command: 'say hello there' })).toMatchObject({ output: 'say hello there (3 words)' });
    expect(parsedForms).toHaveLength(1);
    expect([...seen]).toEqual(parsedForms);

    expect(await agent.call('echo', { command: 'drop it' })).toMatchObject({ success: preset === 'yolo' });
    expect(parsedForms).toHaveLength(2);
    expect(await agent.call('echo', { command: 'shout hello' })).toMatchObject({ success: preset === 'yolo' });
    expect(parsedForms).toHaveLength(3);
    expect([...seen].every((parsed) => parsedForms.includes(parsed))).toBe(true);
  });

  it('hands read-only predicates the parsed form at sandboxed', async () => {
    const { agent } = countingAgent('sandboxed');
    expect(await agent.call('echo', { command: 'one two three four' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringContaining('not a read-only command'),
    });
  });
});
