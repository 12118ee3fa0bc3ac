import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectOption, InvalidParametersError, NexusError } from '@nexus/core';
import { MAX_NAME_LENGTH } from './manifest-limits.js';

const PORTABLE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The language of a new package's script commands: `scripts/commands.mjs` (Node) or `scripts/commands.py` (seed 004's Python). */
export type SkillPackageLanguage = 'node' | 'python';

/** Options of {@link createSkillPackage}. */
export interface CreateSkillPackageOptions {
  /** The language of its commands (default `node`). */
  readonly language?: SkillPackageLanguage;
}

function skillFile(name: string, module: string): string {
  return `---
name: ${name}
description: Say what ${name} does and when to use it — an agent decides from this line alone whether to load the skill.
---

# ${name}

Instructions for the model: when to use this skill, how, and which of its commands to call.

## Commands

- \`${name}__hello\` — greets someone (\`${module}\`).
`;
}

function nodeFiles(name: string): Record<string, string> {
  return {
    'SKILL.md': skillFile(name, 'scripts/commands.mjs'),
    'README.md': `# ${name}

A skill package for Nexus and other agents that read \`SKILL.md\` packages.

- \`SKILL.md\`: the frontmatter (name, description) and the instructions for the model.
- \`scripts/commands.mjs\`: the commands, each a named export \`{ name, description, parameters, run(args) }\`, run in a
  child Node process; \`run\` returns text or JSON.

Check it with \`nexus skills check ${name}\`; run a command with \`nexus skills run ${name}.hello who=Ada\`.
`,
    'scripts/commands.mjs': `// The commands of ${name}. Each named export is a command: Nexus runs it in a child Node process,
// in the working directory, with the arguments as its parameter.
export const hello = {
  name: 'hello',
  description: 'Greets someone by name.',
  category: 'read',
  parameters: { who: { type: 'string', required: true, description: 'Who to greet.' } },
  run({ who }) {
    return \`Hello, \${who}!\`;
  },
};
`,
  };
}

function pythonFiles(name: string): Record<string, string> {
  return {
    'SKILL.md': skillFile(name, 'scripts/commands.py'),
    'README.md': `# ${name}

A skill package for Nexus and other agents that read \`SKILL.md\` packages, with Omni-style Python commands.

- \`SKILL.md\`: the frontmatter (name, description) and the instructions for the model.
- \`scripts/commands.py\`: the commands, each a function decorated with \`@skill_script(name=..., category=...,
  description=...)\`; its parameters come from the signature and type hints (str, int, float, bool, Optional,
  Literal, list[str]). Nexus reads them without importing the module and runs each in a child python3.

Check it with \`nexus skills check ${name}\`; run a command with \`nexus skills run ${name}.hello who=Ada\`.
`,
    'scripts/__init__.py': '',
    'scripts/commands.py': `"""The commands of ${name}: each @skill_script function is a command, run in a child python3."""
from agent.skills.decorators import skill_script


@skill_script(name="hello", category="read", description="Greets someone by name.")
def hello(who: str) -> str:
    """Who to greet goes in \`who\`."""
    return f"Hello, {who}!"
`,
  };
}

/**
 * Creates a new skill package `<parent>/<name>/` (`nexus skills new`): a `SKILL.md` with only
 * portable keys, a `README.md`, and `scripts/commands.mjs` with one command — or, with `language:
 * 'python'` (`--python`), `scripts/__init__.py` and `scripts/commands.py` with one `@skill_script`
 * function — a package that passes `nexus skills check`. The name must be portable (lowercase letters, digits, single
 * hyphens, at most 64); an existing folder is never touched. Returns the folder.
 */
export async function createSkillPackage(parent: string, name: string, options: CreateSkillPackageOptions = {}): Promise<string> {
  const { language = 'node' } = options;
  expectOption(language === 'node' || language === 'python', 'language', '"node" or "python"', language);
  if (!PORTABLE_NAME.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new InvalidParametersError(
      `Expected a skill name of lowercase letters, digits and single hyphens (at most ${MAX_NAME_LENGTH}), got ${JSON.stringify(name)}.`,
      {
        parameter: 'name',
      },
    );
  }
  const folder = join(parent, name);
  await mkdir(parent, { recursive: true });
  try {
    await mkdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new NexusError(`${folder} already exists; pick another name.`, { code: 'SKILL_EXISTS', kind: 'invalid_input' });
    throw error;
  }
  await mkdir(join(folder, 'scripts'));
  const files = language === 'python' ? pythonFiles(name) : nodeFiles(name);
  for (const [file, content] of Object.entries(files)) await writeFile(join(folder, file), content, { flag: 'wx' });
  return folder;
}
