import { type ConfirmationRequest, type PermissionLevel, resolvePreset, ServiceContainer, ToolResult } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CommandFilter,
  defineFilteredCommandSkill,
  type FilteredCommandContext,
  findCommandRefusal,
  formatRunOutput,
} from './index.js';

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
    { pattern: (invocation) => invocation.subcommand === 'drop', reason: 'dropping is irreversible' },
  ],
};

function createRegistry(
  level: PermissionLevel,
  confirm?: (request: ConfirmationRequest) => boolean,
  extra: Partial<Parameters<typeof defineFilteredCommandSkill>[0]> = {},
): SkillRegistry {
  const program = dir.join('tool.sh');
  const services = new ServiceContainer()
    .register('cwd', dir.join('project'))
    .register('permissions', resolvePreset(level, { cwd: dir.join('project') }));
  if (confirm) services.register('confirm', confirm);
  const skill = defineFilteredCommandSkill({ name: 'tool', description: 'A filtered stand-in tool.', program, filter, ...extra });
  return new SkillRegistry(services).use({ name: 'test', skills: [skill] });
}

describe('findCommandRefusal', () => {
  const invocation = (line: string) => ({ argv: line.split(' '), subcommand: line.split(' ')[0] });

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
    const registry = createRegistry('sandboxed');
    const program = dir.join('tool.sh');
    expect(await registry.execute('tool', { command: 'list "two words"' })).toMatchObject({
      success: true,
      output: `args:list two words\ncwd:${dir.join('project')}`,
    });
    expect(await registry.execute('tool', { command: `${program} show x` })).toMatchObject({
      output: expect.stringContaining('args:show x'),
    });
    expect(await registry.execute('tool', { command: 'list; rm -rf /' })).toMatchObject({ kind: 'invalid_input' });
    expect(await registry.execute('tool', { command: program })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringContaining('no arguments'),
    });
  });

  it('filters by level', async () => {
    expect(await createRegistry('sandboxed').execute('tool', { command: 'create x' })).toMatchObject({ kind: 'forbidden' });
    expect(await createRegistry('trusted').execute('tool', { command: 'create x' })).toMatchObject({ success: true });
    expect(await createRegistry('trusted').execute('tool', { command: 'delete x --force' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringContaining('force delete loses data'),
    });
    expect(await createRegistry('yolo').execute('tool', { command: 'delete x --force' })).toMatchObject({ success: true });
  });

  it('treats a missing policy as sandboxed', async () => {
    const spec = defineFilteredCommandSkill({ name: 'tool', description: 'd', program: dir.join('tool.sh'), filter });
    const skill = spec.factory(new ServiceContainer().register('cwd', dir.join('project')));
    expect(await skill.execute({ command: 'create x' })).toMatchObject({ kind: 'forbidden' });
    expect(await skill.execute({ command: 'list' })).toMatchObject({ success: true });
  });

  it('validates cwd: read access for read-only commands, write access (confirmed at trusted) otherwise', async () => {
    expect(await createRegistry('sandboxed').execute('tool', { command: 'list', cwd: outside.path })).toMatchObject({ kind: 'forbidden' });
    expect(await createRegistry('trusted').execute('tool', { command: 'list', cwd: outside.path })).toMatchObject({ success: true });
    const requests: ConfirmationRequest[] = [];
    const refusing = createRegistry('trusted', (request) => (requests.push(request), false));
    expect(await refusing.execute('tool', { command: 'create x', cwd: outside.path })).toMatchObject({ kind: 'forbidden' });
    expect(requests).toEqual([{ tool: 'tool', action: `write outside the working directory: ${outside.path}` }]);
    expect(await createRegistry('trusted', () => true).execute('tool', { command: 'create x', cwd: outside.path })).toMatchObject({
      output: expect.stringContaining(`cwd:${outside.path}`),
    });
  });

  it('lets prepare rewrite the arguments and present shape the result', async () => {
    const seen: FilteredCommandContext[] = [];
    const registry = createRegistry('trusted', undefined, {
      findSubcommand: (argv) => argv.at(-1),
      prepare: (context) => (seen.push(context), { args: ['--hardened', ...context.invocation.argv], env: { TOOL_MODE: 'safe' } }),
      present: (result) => ToolResult.ok(`custom: ${formatRunOutput(result)}`, { lines: result.stdout.split('\n').length }),
    });
    const result = await registry.execute('tool', { command: 'x list' });
    expect(result).toMatchObject({ output: expect.stringContaining('custom: args:--hardened x list'), data: { lines: 3 } });
    expect(seen[0]).toMatchObject({
      invocation: { argv: ['x', 'list'], subcommand: 'list' },
      level: 'trusted',
      readOnly: true,
      cwd: dir.join('project'),
    });
  });
});
