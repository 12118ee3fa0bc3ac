import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidParametersError, NexusError } from '@nexus/core';
import { MAX_NAME_LENGTH } from './manifest-limits.js';

const PORTABLE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function templateFiles(name: string): Record<string, string> {
  return {
    'SKILL.md': `---
name: ${name}
description: Say what ${name} does and when to use it — an agent decides from this line alone whether to load the skill.
---

# ${name}

Instructions for the model: when to use this skill, how, and which of its commands to call.

## Commands

- \`${name}__hello\` — greets someone (\`scripts/commands.mjs\`).
`,
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

/**
 * Creates a new skill package `<parent>/<name>/` (`nexus skills new`): a `SKILL.md` with only
 * portable keys, a `README.md`, and `scripts/commands.mjs` with one command — a package that
 * passes `nexus skills check`. The name must be portable (lowercase letters, digits, single
 * hyphens, at most 64); an existing folder is never touched. Returns the folder.
 */
export async function createSkillPackage(parent: string, name: string): Promise<string> {
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
  for (const [file, content] of Object.entries(templateFiles(name))) await writeFile(join(folder, file), content, { flag: 'wx' });
  return folder;
}
