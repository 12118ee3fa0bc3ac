import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { SkillSpec } from '@nexus/core';
import { describe, expect, it } from 'vitest';

// The one way to build a skill (DESIGN §7): each family's built-in skills in `src/skills/<tool>.ts`
// as `<tool>Skill`, its skill-defining helpers in `src/define-<what>.ts` as `define<What>`, all
// taking one argument shape, and offered to plugin authors under the family's `./kit` subpath.

const root = join(import.meta.dirname, '..');
const families = readdirSync(join(root, 'packages')).filter((dir) => dir.startsWith('skills-'));

const isSpec = (value: unknown): value is SkillSpec =>
  typeof value === 'object' && value !== null && typeof (value as SkillSpec).factory === 'function' && 'parameters' in value;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
/** `read_file` → `readfile`, `shell_UNSAFE` → `shellunsafe`: names compared without case or separators. */
const flat = (name: string) => name.replace(/[-_]/g, '').toLowerCase();

describe.each(families)('the skill family packages/%s', (family) => {
  const src = join(root, 'packages', family, 'src');
  const skillsDir = join(src, 'skills');
  const skillFiles = existsSync(skillsDir) ? sourceFiles(skillsDir).filter((file) => !file.includes('/skills/test/')) : [];
  const helperFiles = sourceFiles(src).filter((file) => /^export (async )?function define\w*Skill\b/m.test(readFileSync(file, 'utf8')));

  it('defines every skill it exports in skills/<tool>.ts, exported as <tool>Skill', async () => {
    const exported = Object.entries(await import(`@nexus/${family}`)).filter(([, value]) => isSpec(value));
    const defined = new Map<unknown, string>();
    for (const file of skillFiles) {
      const specs = Object.entries(await import(file)).filter(([, value]) => isSpec(value));
      expect(specs.length, `${relative(root, file)} defines one skill`).toBe(1);
      const [name, spec] = specs[0] as [string, SkillSpec];
      expect(flat(name), `${relative(root, file)} exports ${name} for ${spec.name}`).toBe(`${flat(spec.name)}skill`);
      expect(flat(spec.name).endsWith(flat(basename(file, '.ts'))), `${relative(root, file)} is named after ${spec.name}`).toBe(true);
      defined.set(spec, name);
    }
    for (const [name, spec] of exported) {
      expect(defined.get(spec), `@nexus/${family} exports ${name}, which is not defined in src/skills/`).toBe(name);
    }
  });

  it('keeps each skill-defining helper in define-<what>.ts, exported as define<What> from the ./kit subpath', async () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', family, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    for (const file of helperFiles) {
      const where = relative(root, file);
      expect(basename(file), `${where} holds a skill-defining helper`).toMatch(/^define-[a-z-]+\.ts$/);
      // `define-gitlab-skill.ts` → `defineGitLabSkill`: the file's words, in the export's own capitals.
      const module = (await import(file)) as Record<string, unknown>;
      const helper = Object.keys(module).find((name) => flat(name) === flat(basename(file, '.ts'))) ?? camel(basename(file, '.ts'));
      expect(typeof module[helper], `${where} exports ${helper}`).toBe('function');
      expect(Object.keys(manifest.exports), `@nexus/${family} offers its helpers under ./kit`).toContain('./kit');
      expect(typeof (await import(`@nexus/${family}/kit`))[helper], `@nexus/${family}/kit exports ${helper}`).toBe('function');
    }
  });

  it("exports each skill's arguments type, <Tool>Arguments, from the package entry point", () => {
    const entry = readFileSync(join(src, 'index.ts'), 'utf8');
    for (const file of skillFiles) {
      for (const [, exported, name] of readFileSync(file, 'utf8').matchAll(/^(export )?interface (\w+Arguments)\b/gm)) {
        expect(exported, `${relative(root, file)} exports ${name}`).toBe('export ');
        expect(entry, `@nexus/${family} exports the type ${name}`).toMatch(new RegExp(`export type \\{[^}]*\\b${name}\\b`));
      }
    }
  });

  it('gives every helper the one argument shape: a description, and parameters as a full JSON Schema', () => {
    for (const file of skillFiles) {
      const source = readFileSync(file, 'utf8');
      const where = relative(root, file);
      // The definition's own keys sit at two spaces; a schema's `properties` / `required` are nested in `parameters`.
      expect(source, `${where} names its description \`description\``).toMatch(/^ {2}description:/m);
      expect(source, `${where} passes a JSON Schema, not its parts`).not.toMatch(/^ {2}(summary|properties|required):/m);
    }
  });
});
