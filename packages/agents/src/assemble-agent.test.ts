import { ConfigError, defineSkill, resolvePreset, ServiceContainer, ToolResult } from '@nexus/core';
import { createChangingTestFamily } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_VARIABLE, SECRET_KEY } from '../test/agent-fixture.js';
import { type AgentSettings, assembleAgent, parseAgentSettings } from './index.js';

let dir: TestDir | undefined;
afterEach(async () => {
  await dir?.cleanup();
  dir = undefined;
});

/** The settings of a model on an address nothing listens on: assembling an agent never calls it. */
function settingsWith(agent: AgentSettings['agent'] = {}): AgentSettings {
  return parseAgentSettings({
    providers: { local: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: KEY_VARIABLE } },
    models: { fast: { provider: 'local', id: 'test-model' } },
    defaultModel: 'fast',
    agent,
  });
}

const whereAmI = defineSkill({
  name: 'where_am_i',
  description: 'Says the working directory and whether a confirmer is registered.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  create: (services) => async () => ToolResult.ok(`${services.getCwd()} confirm:${services.has('confirm')}`),
});

describe('assembleAgent', () => {
  it('turns settings, families and permissions into an agent: the default prompt, the agent defaults, the services', async () => {
    dir = await testdir({});
    const permissions = resolvePreset('sandboxed', { cwd: dir.path });
    const services = new ServiceContainer().register('confirm', async () => true);

    const agent = assembleAgent({
      settings: settingsWith({ maxToolIterations: 7 }),
      env: { [KEY_VARIABLE]: SECRET_KEY },
      families: [{ name: 'test', skills: [whereAmI] }],
      permissions,
      services,
    });

    expect(agent.model.alias).toBe('fast');
    expect(agent.maxToolIterations).toBe(7);
    expect(agent.context().system_prompt).toBe(
      `You are Nexus, a careful assistant working in the directory ${dir.path} with the "sandboxed" permission level. ` +
        'Use your tools to look things up and to act instead of guessing; paths are relative to that directory. ' +
        'When a tool refuses or fails, read why and adapt; do not repeat a refused call unchanged. Answer concisely.',
    );
    expect(agent.registry.services.getPermissionLevel()).toBe('sandboxed');
    expect((await agent.registry.execute('where_am_i')).output).toBe(`${dir.path} confirm:true`);
  });

  it('a given system prompt wins over the settings’ one, which wins over the default', async () => {
    dir = await testdir({});
    const base = {
      env: { [KEY_VARIABLE]: SECRET_KEY },
      families: [],
      permissions: resolvePreset('trusted', { cwd: dir.path }),
    };

    expect(assembleAgent({ ...base, settings: settingsWith({ systemPrompt: 'Configured.' }) }).context().system_prompt).toBe('Configured.');
    expect(
      assembleAgent({ ...base, settings: settingsWith({ systemPrompt: 'Configured.' }), systemPrompt: 'Asked for.' }).context()
        .system_prompt,
    ).toBe('Asked for.');
  });

  it('refuses an unknown model alias with a ConfigError, and a family it cannot use leaves no family followed', async () => {
    dir = await testdir({});
    const changing = createChangingTestFamily({ skills: [whereAmI] });
    const base = {
      settings: settingsWith(),
      env: { [KEY_VARIABLE]: SECRET_KEY },
      permissions: resolvePreset('trusted', { cwd: dir.path }),
    };

    expect(() => assembleAgent({ ...base, model: 'ghost', families: [changing] })).toThrow(ConfigError);
    expect(() => assembleAgent({ ...base, families: [changing, { name: 'twin', skills: [whereAmI] }] })).toThrow(/where_am_i/);
    expect(changing.listenerCount).toBe(0);
  });
});
