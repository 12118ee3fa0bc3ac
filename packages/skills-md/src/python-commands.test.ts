import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bubblewrapSkipReason } from '@nexus/process/testing';
import { writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from './skill-diagnostic.js';
import { type SkillWorld, skillPackage, skillWorld } from './skill-world-fixture.js';

let world: SkillWorld;
beforeEach(async () => {
  world = await skillWorld();
});
afterEach(() => world.dir.cleanup());

/** An Omni package's scripts/commands.py (seed 004), with a side effect at import that listing must not cause. */
const COMMANDS_PY = `
from typing import Literal, Optional
from agent.skills.decorators import skill_script

open("imported.txt", "w").write("the module ran")

@skill_script(name="status", category="read", description="Show the working tree status")
async def git_status() -> str:
    """Display the working tree status."""
    import os
    return "clean in " + os.getcwd()

@skill_script(name="commit", category="write", description="Commit staged changes")
def commit(message: str, amend: bool = False, retries: int = 2, ratio: float = 0.5,
           author: Optional[str] = None, mode: Literal["fast", "safe"] = "safe", paths: list[str] = [], limit=3) -> dict:
    return {"limit": limit, "message": message, "amend": amend, "retries": retries, "ratio": ratio,
            "author": author, "mode": mode, "paths": paths}

@skill_script(name="explode", description="Fails.")
def explode():
    raise RuntimeError("kaboom")

def helper():
    return "not a command"
`;

const noBubblewrap = await bubblewrapSkipReason();

const omni = (commands = COMMANDS_PY) =>
  skillPackage('name: omni\ndescription: Omni-style git.', { scripts: { '__init__.py': '', 'commands.py': commands } });

describe('Omni Python commands (scripts/commands.py with @skill_script)', () => {
  it('turns each decorated function into a command tool, typed from its signature and described by decorator and docstring, without importing the module', async () => {
    await world.addUserPackages({ omni: omni() });
    const agent = await world.agent();
    expect(agent.loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')).toEqual([]);
    expect(agent.registry.names).toEqual(['skill', 'omni__status', 'omni__commit', 'omni__explode']);
    expect(existsSync(join(world.cwd, 'imported.txt'))).toBe(false);
    expect(agent.registry.getSpec('omni__status')).toMatchObject({
      readOnly: true,
      description: 'Show the working tree status. Display the working tree status. (command `status` of the omni skill)',
    });
    expect(agent.registry.getSpec('omni__commit')?.destructive).toBe(true);
    expect(agent.registry.getSpec('omni__commit')?.parameters).toEqual({
      type: 'object',
      properties: {
        message: { type: 'string', description: 'Required.' },
        amend: { type: 'boolean', default: false },
        retries: { type: 'integer', default: 2 },
        ratio: { type: 'number', default: 0.5 },
        author: { type: 'string' },
        mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' },
        paths: { type: 'array', items: { type: 'string' }, default: [] },
        limit: { type: 'integer', default: 3 },
      },
      additionalProperties: false,
    });
  });

  it('runs a command in a child python3 that imports the module with the agent.skills.decorators shim, async or plain', async () => {
    await world.addUserPackages({ omni: omni() });
    const agent = await world.agent({ confirm: true });
    const status = await agent.call('omni__status');
    expect(status.output.split('\n')[0]).toBe(`✅ skills omni: status → clean in ${world.cwd}`);
    const commit = await agent.call('omni__commit', { message: 'first', paths: ['a.txt', '-b'], mode: 'fast' });
    expect(commit.success, commit.error).toBe(true);
    expect(commit.data).toMatchObject({
      data: { result: { message: 'first', amend: false, retries: 2, ratio: 0.5, author: null, mode: 'fast', paths: ['a.txt', '-b'] } },
    });
    const wrong = await agent.call('omni__commit', { message: 'x', paths: 'a.txt' });
    expect(wrong.kind).toBe('invalid_input');
    const exploded = await agent.call('omni__explode');
    expect(exploded.data).toMatchObject({ state: 'error', error_type: 'RuntimeFailed' });
    expect(exploded.error).toContain('RuntimeError: kaboom');
  });

  it('keeps the version in use when an edit does not compile (python3 -m py_compile), and takes a good edit', async () => {
    const module = (greeting: string) =>
      `from agent.skills.decorators import skill_script\n\n@skill_script(name="greet", description="Greets.")\ndef greet(who: str) -> str:\n    return "${greeting} " + who\n`;
    await world.addUserPackages({ omni: omni(module('hello')) });
    const agent = await world.libraryAgent({ watch: false, checkIntervalMs: 0 });
    expect((await agent.call('omni__greet', { who: 'Ada' })).output).toContain('hello Ada');
    const file = join(world.userRoot, 'omni', 'scripts', 'commands.py');
    await writeFile(file, `${module('hi')}\ndef broken(:\n`);
    await agent.registry.refresh();
    expect(agent.library.diagnostics.map(formatDiagnostic).join('\n')).toMatch(
      /commands\.py:7:\d+: error: scripts\/commands\.py does not compile/,
    );
    expect((await agent.call('omni__greet', { who: 'Ada' })).output).toContain('hello Ada');
    await writeFile(
      file,
      `${module('hi')}\n@skill_script(name="wave", description="Waves.")\nasync def wave(times: int = 1) -> str:\n    return "bye " * times\n`,
    );
    await agent.registry.refresh();
    expect((await agent.call('omni__greet', { who: 'Ada' })).output).toContain('hi Ada');
    expect((await agent.call('omni__wave', { times: 2 })).output).toContain('bye bye');
  });

  it.skipIf(noBubblewrap)(
    'runs inside the sandbox commands run in: the package folder read-only, the host’s processes out of sight',
    async () => {
      const probe = `from agent.skills.decorators import skill_script

@skill_script(name="probe", description="Probes the sandbox.")
def probe() -> dict:
    try:
        open(__file__ + ".new", "w").write("x")
        wrote = "wrote"
    except OSError:
        wrote = "nowrite"
    return {"package": wrote, "init": open("/proc/1/cmdline").read()}
`;
      await world.addUserPackages({ omni: omni(probe) });
      const agent = await world.agent({ services: { exec: { sandbox: 'bubblewrap' } } });
      const result = await agent.call('omni__probe');
      expect(result.success, result.error).toBe(true);
      const data = (result.data as { data: { result: { package: string; init: string } } }).data.result;
      expect(data.package).toBe('nowrite');
      expect(data.init).not.toBe(readFileSync('/proc/1/cmdline', 'utf8'));
    },
  );

  it('never imports a module the working directory plants under a standard name (json.py, ast.py), listing or running', async () => {
    await writeTree(world.cwd, {
      'json.py': 'open("hijacked-json", "w").write("x")\nfrom importlib import import_module\n',
      'ast.py': 'open("hijacked-ast", "w").write("x")\n',
    });
    await world.addUserPackages({ omni: omni() });
    const agent = await world.agent();
    expect(agent.registry.names).toContain('omni__status');
    expect((await agent.call('omni__status')).success).toBe(true);
    expect(existsSync(join(world.cwd, 'hijacked-json'))).toBe(false);
    expect(existsSync(join(world.cwd, 'hijacked-ast'))).toBe(false);
  });

  it('refuses a package with both scripts/commands.mjs and scripts/commands.py, and a signature it cannot type', async () => {
    await world.addUserPackages({
      both: skillPackage('name: both\ndescription: Both.', {
        scripts: { 'commands.py': '', 'commands.mjs': 'export const a = 1;\n' },
      }),
      untyped: skillPackage('name: untyped\ndescription: Untyped.', {
        scripts: {
          'commands.py':
            'from agent.skills.decorators import skill_script\n\n@skill_script(name="odd", description="Odd.")\ndef odd(data: dict) -> str:\n    return ""\n',
        },
      }),
    });
    const loaded = await world.load();
    expect(loaded.diagnostics.map(formatDiagnostic)).toContainEqual(
      expect.stringMatching(/untyped\/scripts\/__init__\.py:1:1: note: no scripts\/__init__\.py \(seed 004's package marker\)/),
    );
    const errors = loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map(formatDiagnostic);
    expect(errors).toEqual([
      expect.stringMatching(/both\/scripts:1:1: error: both scripts\/commands\.mjs and scripts\/commands\.py; keep one of them$/),
      expect.stringMatching(/untyped\/scripts\/commands\.py:4:9: error: the parameter `data` of `odd` has a type that is not supported/),
    ]);
  });
});
