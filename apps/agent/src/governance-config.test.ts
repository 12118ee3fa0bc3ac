import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNexusIn, writeUserConfig } from './testing/memory-io-fixture.js';

let dir: TestDir;

beforeEach(async () => {
  dir = await testdir({ project: { src: { 'a.txt': 'a\n' }, secret: { 'key.txt': 'k\n' } }, config: {}, state: {} });
});

afterEach(async () => {
  await dir.cleanup();
});

const run = (args: string[]) => runNexusIn(dir, args);
const userConfig = (config: object) => writeUserConfig(dir, config);
const projectConfig = (config: object) => writeTree(dir.join('project'), { 'nexus.config.json': JSON.stringify(config) });

describe('rules in the config files', () => {
  const denySecret = { tool: 'read_file', match: { path: 'secret/**' }, decision: 'deny', reason: 'keys stay put' };

  it('deny a call whose path dodges them with ../', async () => {
    await userConfig({ rules: [denySecret] });
    const refused = await run(['call', 'read_file', 'path=src/../secret/key.txt']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('read_file was denied by rule 1: keys stay put.');
    expect((await run(['call', 'read_file', 'path=src/a.txt'])).code).toBe(0);
  });

  it('are shown by nexus config, the project’s first (they only narrow)', async () => {
    const askPush = { tool: 'git', match: { command: 'push *' }, decision: 'ask' };
    await userConfig({ rules: [askPush] });
    await projectConfig({ rules: [denySecret] });
    const { code, stdout } = await run(['config']);
    expect(code).toBe(0);
    const shown = JSON.parse(stdout);
    expect(shown.rules).toEqual([denySecret, askPush]);
    expect(shown.permissions.rules).toEqual([denySecret, askPush]);
  });

  it('refuse an allow rule in a project’s file', async () => {
    await projectConfig({ rules: [denySecret, { tool: 'read_file', decision: 'allow' }] });
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain('`rules[1].decision` is not allowed here');
  });

  it.each([
    [{ tool: 'read_fil', decision: 'deny' }, '`rules[0].tool`: no tool named "read_fil"'],
    [{ tool: 'read_file', match: { file: 'x' }, decision: 'deny' }, '`rules[0].match.file`: "read_file" has no argument "file"'],
    [{ tool: 'read_file', decision: 'maybe' }, '`rules.0.decision`: Invalid option'],
  ])('name a rule with an unknown tool, argument or decision: %j', async (rule, message) => {
    await userConfig({ rules: [rule] });
    const { code, stderr } = await run(['config']);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('nexus help config', () => {
  it('documents rules, hooks, the audit log and traces', async () => {
    const { code, stdout } = await run(['help', 'config']);
    expect(code).toBe(0);
    for (const text of [
      '"rules"',
      'deny refuses without',
      '"hooks"',
      '"decision": "allow" | "deny"',
      '"audit"',
      'nexus audit',
      '"telemetry"',
      '<endpoint>/v1/traces',
    ])
      expect(stdout).toContain(text);
  });
});
