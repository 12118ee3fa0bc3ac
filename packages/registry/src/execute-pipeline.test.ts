import { defineSkill, resolvePreset, ServiceContainer, type SkillSpec, ToolResult } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { SkillRegistry, utilitySkills } from './index.js';

const schemaSkill = defineSkill<Record<string, unknown>>({
  name: 'inspect',
  description: 'Returns its arguments as JSON.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to inspect.' },
      offset: { type: 'integer', minimum: 1, default: 1 },
      mode: { type: 'string', enum: ['strict', 'fuzzy'], default: 'strict' },
      flag: { type: 'boolean' },
      edits: { type: 'array', items: { type: 'object', properties: { old_string: { type: 'string' } }, required: ['old_string'] } },
    },
    required: ['path'],
    additionalProperties: false,
  },
  create: () => (args) => ToolResult.ok(JSON.stringify(args)),
});

function registry(level?: 'sandboxed' | 'trusted' | 'yolo', extra: Partial<SkillSpec> = {}) {
  const services = new ServiceContainer();
  if (level) services.register('permissions', resolvePreset(level, { cwd: '/tmp' }));
  return new SkillRegistry(services).register({ ...schemaSkill, ...extra }).use(utilitySkills);
}

/** A skill that waits until its signal aborts (`onAbort` sees it), then answers `late`; `onStart` runs when it is called. */
function awaitingAbort(name: string, onAbort: (signal: AbortSignal) => void, onStart?: () => void) {
  return defineSkill({
    name,
    description: 'Waits for abort.',
    parameters: { type: 'object' },
    create:
      () =>
      (_args, { signal }) => {
        onStart?.();
        return new Promise<ToolResult>((resolve) =>
          signal?.addEventListener('abort', () => {
            onAbort(signal);
            resolve(ToolResult.ok('late'));
          }),
        );
      },
  });
}
describe('validation', () => {
  it('applies defaults and friendly coercion without touching the caller’s object', async () => {
    const args = { path: 'a.txt', offset: '10', flag: 'true' };
    const result = await registry().execute('inspect', args);
    expect(JSON.parse(result.output)).toEqual({ path: 'a.txt', offset: 10, flag: true, mode: 'strict' });
    expect(args).toEqual({ path: 'a.txt', offset: '10', flag: 'true' });
  });

  it.each([
    [{}, /Missing required parameter `path` \(File to inspect\.\)/, ['path']],
    [{ path: 'a', offset: 0 }, /`offset` must be >= 1, got number 0/, ['offset']],
    [{ path: 'a', offset: 'ten' }, /`offset` must be an integer, got the string "ten"/, ['offset']],
    [{ path: 'a', mode: 'loose' }, /`mode` must be one of "strict", "fuzzy"/, ['mode']],
    [{ path: 'a', colour: 'red' }, /Unknown parameter `colour`; expected one of: path, offset, mode, flag, edits/, ['colour']],
    [{ path: 'a', edits: [{}] }, /Missing required parameter `edits\[0\]\.old_string`/, ['edits[0].old_string']],
    [{ path: ['a'] }, /`path` must be a string, got an array/, ['path']],
  ])('refuses %j with a message naming the parameter', async (args, message, parameters) => {
    const result = await registry().execute('inspect', args);
    expect(result.kind).toBe('invalid_input');
    expect(result.error).toMatch(message);
    expect(result.data).toEqual({ parameters });
  });

  it('refuses arguments that are not an object', async () => {
    const result = await registry().execute('inspect', 'path=a' as never);
    expect(result).toMatchObject({ kind: 'invalid_input', error: 'Arguments must be a JSON object, got the string "path=a".' });
  });
});

describe('registration', () => {
  it('refuses an invalid schema, a bad name and duplicates with clear errors', () => {
    const bad = {
      ...schemaSkill,
      name: 'bad',
      parameters: { type: 'object', properties: { n: { type: 'integr' } } },
    } as unknown as SkillSpec;
    expect(() => new SkillRegistry().register(bad)).toThrow(/Invalid parameters schema for skill "bad"/);
    expect(() => new SkillRegistry().register({ ...schemaSkill, parameters: { type: 'array' } as never })).toThrow(/root must be/);
    expect(() => new SkillRegistry().register({ ...schemaSkill, name: 'has space' })).toThrow(/Invalid tool name/);
    expect(() => registry().register(schemaSkill)).toThrow(/already registered/);
    expect(() => new SkillRegistry().register('x', () => schemaSkill.factory(new ServiceContainer()), undefined as never)).toThrow(
      /needs a factory and metadata/,
    );
  });

  it('accepts a name, factory and metadata', async () => {
    const reg = new SkillRegistry().register('inspect2', (services) => schemaSkill.factory(services), {
      description: 'd',
      parameters: { type: 'object' },
    });
    expect(reg.getDefinitions({ format: 'anthropic' })).toEqual([{ name: 'inspect2', description: 'd', input_schema: { type: 'object' } }]);
  });
});

describe('definitions', () => {
  it('produce the three formats with MCP annotations', () => {
    const reg = registry();
    expect(reg.getDefinitions({ format: 'mcp' })[0]).toEqual({
      name: 'inspect',
      description: schemaSkill.description,
      inputSchema: schemaSkill.parameters,
      annotations: { readOnlyHint: false, destructiveHint: false },
    });
    expect(reg.getDefinitions({ format: 'mcp' }).find((tool) => tool.name === 'echo')?.annotations.readOnlyHint).toBe(true);
    expect(reg.getDefinitions({ format: 'anthropic' }).map((tool) => Object.keys(tool))).toEqual([
      ['name', 'description', 'input_schema'],
      ['name', 'description', 'input_schema'],
      ['name', 'description', 'input_schema'],
    ]);
    expect(() => reg.getDefinitions({ format: 'xml' as never })).toThrow(/Expected `format`/);
  });

  it('for permissions leave out disabled and above-level tools', () => {
    const reg = registry(undefined, { minimumLevel: 'trusted' });
    const sandboxed = resolvePreset('sandboxed', { cwd: '/tmp', tools: { sleep: { enabled: false } } });
    expect(reg.getDefinitionsForPermissions(sandboxed).map((tool) => tool.function.name)).toEqual(['echo']);
    expect(reg.getDefinitionsForPermissions(resolvePreset('trusted', { cwd: '/tmp' })).map((tool) => tool.function.name)).toEqual([
      'inspect',
      'echo',
      'sleep',
    ]);
  });
});

describe('the pipeline', () => {
  it('reports an unknown tool with the available names', async () => {
    expect(await registry().execute('nope')).toMatchObject({
      kind: 'not_found',
      error: 'Unknown tool "nope". Available tools: inspect, echo, sleep.',
    });
  });

  it('gates by level and per-tool enabled before validating', async () => {
    expect(await registry('sandboxed', { minimumLevel: 'trusted' }).execute('inspect', {})).toMatchObject({
      kind: 'forbidden',
      error: expect.stringMatching(/needs the "trusted" permission level/),
    });
    const services = new ServiceContainer().register(
      'permissions',
      resolvePreset('yolo', { cwd: '/tmp', tools: { echo: { enabled: false } } }),
    );
    expect(await new SkillRegistry(services).use(utilitySkills).execute('echo', { message: 'x' })).toMatchObject({ kind: 'forbidden' });
  });

  it('asks for confirmation where the policy says so, and refuses without it', async () => {
    const asked: string[] = [];
    const services = new ServiceContainer().register(
      'permissions',
      resolvePreset('trusted', { cwd: '/tmp', tools: { echo: { requiresConfirmation: true } } }),
    );
    const reg = new SkillRegistry(services).use(utilitySkills);
    expect(await reg.execute('echo', { message: 'x' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringMatching(/needs confirmation/),
    });
    services.register('confirm', (request) => (asked.push(`${request.tool}: ${request.detail}`), true));
    expect(await reg.execute('echo', { message: 'x' })).toMatchObject({ success: true, output: 'x' });
    expect(asked).toEqual(['echo: {"message":"x"}']);
  });

  it("asks the caller's confirm of this call before the service, and hands it to the skill", async () => {
    const asked: string[] = [];
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: '/tmp', tools: { ask: { requiresConfirmation: true } } }))
      .register('confirm', () => {
        asked.push('service');
        return false;
      });
    const askSkill = defineSkill({
      name: 'ask',
      description: 'Asks for approval itself, then says what it was told.',
      parameters: { type: 'object', properties: {} },
      create: (skillServices) => async (_args, context) =>
        ToolResult.ok(String(await skillServices.confirm({ tool: 'ask', action: 'go on' }, context.confirm))),
    });
    const reg = new SkillRegistry(services).register(askSkill);
    const approve = (who: string) => (request: { action: string }) => (asked.push(`${who}: ${request.action}`), true);
    expect(await reg.execute('ask', {}, { confirm: approve('first caller') })).toMatchObject({ success: true, output: 'true' });
    expect(await reg.execute('ask', {}, { confirm: approve('second caller') })).toMatchObject({ success: true, output: 'true' });
    expect(await reg.execute('ask', {})).toMatchObject({ kind: 'forbidden' });
    expect(asked).toEqual(['first caller: run ask', 'first caller: go on', 'second caller: run ask', 'second caller: go on', 'service']);
  });

  it('asks once per call for what the call already had approved, and again in the next call', async () => {
    const asked: string[] = [];
    const services = new ServiceContainer()
      .register('permissions', resolvePreset('trusted', { cwd: '/tmp' }))
      .register('confirm', (request) => (asked.push(request.action), true));
    const twice = defineSkill({
      name: 'twice',
      description: 'Asks the same thing twice, then about a path inside the first.',
      parameters: { type: 'object', properties: {} },
      create: (skillServices) => async (_args, context) => {
        for (const path of ['/srv/a', '/srv/a', '/srv/a/b'])
          await skillServices.confirm({ tool: 'twice', action: `write ${path}`, path }, context.confirm);
        return ToolResult.ok('done');
      },
    });
    const reg = new SkillRegistry(services).register(twice);
    await reg.execute('twice');
    await reg.execute('twice');
    expect(asked).toEqual(['write /srv/a', 'write /srv/a']);
  });

  it('refuses a skill above the sandboxed level when no policy is registered, in the registry and inside the skill', async () => {
    const trustedOnly = defineSkill({
      name: 'inspect',
      description: 'Needs trust.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      minimumLevel: 'trusted',
      create: () => () => ToolResult.ok('ran'),
    });
    expect(await new SkillRegistry().register(trustedOnly).execute('inspect', { path: 'a' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringMatching(/no permission policy is registered/),
    });
    const direct = trustedOnly.factory(new ServiceContainer().register('permissions', resolvePreset('sandboxed', { cwd: '/tmp' })));
    expect(await direct.execute({ path: 'a' })).toMatchObject({
      kind: 'forbidden',
      error: expect.stringMatching(/needs the "trusted" permission level/),
    });
  });

  it('refuses a skill below its own minimumLevel however it was registered, even with metadata that says lower', async () => {
    const trustedOnly = defineSkill({
      name: 'inspect',
      description: 'Needs trust.',
      parameters: { type: 'object' },
      minimumLevel: 'trusted',
      create: () => () => ToolResult.ok('ran'),
    });
    const sandboxed = resolvePreset('sandboxed', { cwd: '/tmp' });
    const services = new ServiceContainer().register('permissions', sandboxed);
    const refusal = { kind: 'forbidden', error: expect.stringMatching(/"inspect" needs the "trusted" permission level/) };
    const asInstance = new SkillRegistry(services).register(trustedOnly.factory(services));
    expect(await asInstance.execute('inspect')).toMatchObject(refusal);
    const listedAsSandboxed = new SkillRegistry(services).register({ ...trustedOnly, minimumLevel: 'sandboxed' });
    expect(await listedAsSandboxed.execute('inspect')).toMatchObject(refusal);
  });

  it('stops a skill at the time limit, aborting its signal', async () => {
    let aborted = false;
    const slow = awaitingAbort('slow', () => (aborted = true));
    const result = await new SkillRegistry().register(slow).execute('slow', {}, { timeoutMs: 50 });
    expect(result).toMatchObject({ kind: 'timeout', error: 'slow did not finish within 0.05 s and was stopped.' });
    expect(aborted).toBe(true);
  });

  it('keeps each concurrent call’s own time limit', async () => {
    const reg = registry();
    const [long, short, quick] = await Promise.all([
      reg.execute('sleep', { seconds: 0.4 }, { timeoutMs: 5000 }),
      reg.execute('sleep', { seconds: 5 }, { timeoutMs: 150 }),
      reg.execute('sleep', { seconds: 0.05 }, { timeoutMs: 2000 }),
    ]);
    expect(long).toMatchObject({ success: true });
    expect(short).toMatchObject({ kind: 'timeout' });
    expect(quick).toMatchObject({ success: true });
  });

  it('cancels a running sleep through the caller’s signal and refuses an already-aborted one', async () => {
    const controller = new AbortController();
    const pending = registry().execute('sleep', { seconds: 30 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'cancelled' });
    expect(await registry().execute('sleep', { seconds: 1 }, { signal: AbortSignal.abort() })).toMatchObject({ kind: 'cancelled' });
  });

  it('cancels a call whose caller aborts in the turn it started, aborting the skill’s signal', async () => {
    const controller = new AbortController();
    const started = Promise.withResolvers<void>();
    const seen: unknown[] = [];
    const waiting = awaitingAbort('waiting', (signal) => seen.push(signal.reason), started.resolve);
    const pending = new SkillRegistry().register(waiting).execute('waiting', {}, { signal: controller.signal });
    await started.promise;
    controller.abort('stop');
    expect(await pending).toMatchObject({ kind: 'cancelled', error: 'waiting was cancelled.' });
    expect(seen).toEqual(['stop']);
  });

  it('answers cancelled when the caller aborted before the skill returned, though it then returns', async () => {
    const controller = new AbortController();
    const quick = defineSkill({
      name: 'quick',
      description: 'Returns at once.',
      parameters: { type: 'object' },
      create: () => () => {
        controller.abort();
        return ToolResult.ok('done');
      },
    });
    const result = await new SkillRegistry().register(quick).execute('quick', {}, { signal: controller.signal });
    expect(result).toMatchObject({ kind: 'cancelled', error: 'quick was cancelled.' });
  });

  it('turns throws and non-results into failed results', async () => {
    const throwing = {
      name: 'throws',
      description: 'x',
      parameters: { type: 'object' as const },
      factory: () => ({
        name: 'throws',
        description: 'x',
        parameters: { type: 'object' as const },
        execute: async () => {
          throw new Error('exploded');
        },
      }),
    };
    const factoryThrows = {
      ...throwing,
      name: 'factory_throws',
      factory: () => {
        throw new Error('cannot build');
      },
    };
    const wrong = { ...throwing, name: 'wrong', factory: () => ({ ...throwing.factory(), execute: async () => 'text' as never }) };
    const reg = new SkillRegistry().register(throwing).register(factoryThrows).register(wrong);
    expect(await reg.execute('throws')).toMatchObject({ kind: 'execution_failed', error: 'exploded' });
    expect(await reg.execute('factory_throws')).toMatchObject({ kind: 'execution_failed', error: 'cannot build' });
    expect(await reg.execute('wrong')).toMatchObject({
      kind: 'execution_failed',
      error: 'wrong returned something other than a ToolResult.',
    });
  });
});

describe('utility skills', () => {
  it('sleep reports progress and honours its range', async () => {
    const progress: Array<{ message?: string; current?: number; total?: number }> = [];
    const result = await registry().execute('sleep', { seconds: 1.2, label: 'nap' }, { onProgress: (update) => progress.push(update) });
    expect(result).toMatchObject({ success: true, output: 'Slept 1.2 s (nap).' });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toEqual({ message: 'slept 1.2 of 1.2 s (nap)', current: 1200, total: 1200 });
    expect(await registry().execute('sleep', { seconds: 3601 })).toMatchObject({
      kind: 'invalid_input',
      error: expect.stringMatching(/`seconds` must be <= 3600/),
    });
  });

  it('the SkillRegistry refuses a non-positive timeout', () => {
    expect(() => new SkillRegistry(new ServiceContainer(), { timeoutMs: 0 })).toThrow(/Expected `timeoutMs` to be a positive number/);
  });
});
