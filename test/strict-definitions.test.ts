// Every built-in tool's strict definitions in both dialects, pinned as files so that a change to a
// schema or to the conversion shows in review, and checked against OpenAI's strict-mode rules. A
// repository check, because it spans the registry and every family (DESIGN §1). After changing a
// skill's description or parameters, review and rewrite the snapshots:
//   npx vitest run --project repository test/strict-definitions.test.ts -u
import { SkillRegistry, utilitySkills } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import { execSkills } from '@nexus/skills-exec';
import { fsSkills } from '@nexus/skills-fs';
import { gitSkills } from '@nexus/skills-git';
import { gitlabSkills } from '@nexus/skills-gitlab';
import { findOpenAiStrictSchemaProblems, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const registry = new SkillRegistry().use(fsSkills, execSkills, gitSkills, gitlabSkills, utilitySkills);
const openAi = registry.getDefinitions({ format: 'openai', strict: true });
const anthropic = registry.getDefinitions({ format: 'anthropic', strict: true });

/** Tools whose schema has no strict form, with the reason, so a new one is a decision. */
const NON_STRICT = ['gitlab_feature_flag']; // strategies[].parameters is an open-ended object

const asFile = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Where, in an Anthropic input schema, an object is left open or composition sits at the top. */
function anthropicProblems(schema: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('root is not an object');
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) if (keyword in schema) problems.push(`top-level ${keyword}`);
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) for (const [index, item] of node.entries()) visit(item, `${at}[${index}]`);
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const record = node as Record<string, unknown>;
    if ('properties' in record && record.additionalProperties !== false) problems.push(`${at} is not closed`);
    for (const [key, child] of Object.entries(record))
      if (key !== 'enum' && key !== 'const' && key !== 'default') visit(child, `${at}.${key}`);
  };
  visit(schema, 'input_schema');
  return problems;
}

describe('strict definitions of every built-in tool', () => {
  it('covers every family', () => {
    expect(openAi).toHaveLength(registry.names.length);
    expect(registry.names).toEqual(expect.arrayContaining(['read_file', 'bash_safe', 'git', 'gitlab_issue', 'sleep']));
  });

  it('OpenAI strict definitions match the snapshot', async () => {
    await expect(asFile(openAi)).toMatchFileSnapshot('__snapshots__/strict-definitions.openai.snap');
  });

  it('Anthropic strict definitions match the snapshot', async () => {
    await expect(asFile(anthropic)).toMatchFileSnapshot('__snapshots__/strict-definitions.anthropic.snap');
  });

  it('marks every tool strict but those without a strict form, which go out as they are', () => {
    expect(openAi.filter((tool) => !tool.function.strict).map((tool) => tool.function.name)).toEqual(NON_STRICT);
    expect(anthropic.filter((tool) => !tool.strict).map((tool) => tool.name)).toEqual(NON_STRICT);
    for (const name of NON_STRICT) {
      const spec = registry.getSpec(name);
      expect(openAi.find((tool) => tool.function.name === name)?.function.parameters).toBe(spec?.parameters);
      expect(anthropic.find((tool) => tool.name === name)?.input_schema).toBe(spec?.parameters);
    }
  });

  it.each(openAi.filter((tool) => tool.function.strict).map((tool) => [tool.function.name, tool.function.parameters] as const))(
    'OpenAI accepts the strict parameters of %s',
    (_, parameters) => {
      expect(findOpenAiStrictSchemaProblems(parameters)).toEqual([]);
    },
  );

  it.each(anthropic.filter((tool) => tool.strict).map((tool) => [tool.name, tool.input_schema] as const))(
    'the Anthropic input schema of %s has an object root without composition, every object closed',
    (_, schema) => {
      expect(anthropicProblems(schema)).toEqual([]);
    },
  );
});

describe('calls as a strict model sends them', () => {
  let dir: TestDir;
  beforeEach(async () => {
    dir = await testdir({ 'notes.txt': 'first\nsecond\nthird\n' });
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  /** The arguments with every property the strict schema requires but `given` leaves out set to null. */
  function strictCall(tool: string, given: Record<string, unknown>): Record<string, unknown> {
    const parameters = openAi.find((definition) => definition.function.name === tool)?.function.parameters;
    const names = (parameters?.required ?? []) as string[];
    return Object.fromEntries(names.map((name) => [name, name in given ? given[name] : null]));
  }

  it('read_file with offset and limit null reads the whole file', async () => {
    const agent = createTestAgent({ cwd: dir.path, families: [fsSkills] });
    const args = strictCall('read_file', { path: 'notes.txt' });
    expect(Object.values(args)).toContain(null);
    const result = await agent.call('read_file', args);
    expect(result).toMatchObject({ success: true });
    expect(result.output).toContain('third');
  });

  it('edit_file with edits whose replace_all is null applies them', async () => {
    const agent = createTestAgent({ cwd: dir.path, preset: 'trusted', families: [fsSkills] });
    const args = strictCall('edit_file', { path: 'notes.txt', edits: [{ old_string: 'second', new_string: '2nd', replace_all: null }] });
    expect(await agent.call('edit_file', args)).toMatchObject({ success: true });
    expect(await agent.call('read_file', { path: 'notes.txt' })).toMatchObject({ output: expect.stringContaining('2nd') });
  });

  it('a required parameter sent as null is still refused, naming it', async () => {
    const agent = createTestAgent({ cwd: dir.path, preset: 'trusted', families: [fsSkills] });
    const result = await agent.call('write_file', strictCall('write_file', { path: 'notes.txt', content: null }));
    expect(result).toMatchObject({ kind: 'invalid_input', data: { parameters: ['content'] } });
  });
});
