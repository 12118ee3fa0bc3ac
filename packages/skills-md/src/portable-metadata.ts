import type { SkillFile } from './read-skill-file.js';
import { diagnosticAt, type SkillDiagnostic } from './skill-diagnostic.js';

function kindOf(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/**
 * The frontmatter with its `metadata` made the map of strings that agentskills.io defines, and a
 * warning naming each value that was not a string — metadata never keeps a package from loading.
 * A number or boolean is read as its text as written (`version: 1.0` → `"1.0"`), an empty value
 * (null) as `""`; a list or mapping is left out, and so is a `metadata` that is not a mapping.
 */
export function portableMetadata(skill: SkillFile): { frontmatter: Record<string, unknown>; diagnostics: SkillDiagnostic[] } {
  const { metadata, ...rest } = skill.frontmatter;
  const diagnostics: SkillDiagnostic[] = [];
  const warn = (path: string[], message: string) => diagnostics.push(diagnosticAt('warning', skill.file, skill.locate(path), message));
  if (metadata === undefined) return { frontmatter: skill.frontmatter, diagnostics };
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    warn(['metadata'], `\`metadata\` is ${kindOf(metadata)}; it must map keys to strings, so it is left out`);
    return { frontmatter: rest, diagnostics };
  }
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string') {
      strings[key] = value;
      continue;
    }
    const path = ['metadata', key];
    const what = `\`metadata.${key}\` is ${kindOf(value)}; metadata values are strings`;
    if (value !== null && typeof value === 'object') {
      warn(path, `${what}, so it is left out`);
      continue;
    }
    const text = value === null ? '' : (skill.textAt(path) ?? String(value));
    strings[key] = text;
    warn(path, `${what}, so it is read as ${JSON.stringify(text)} (quote it for other clients)`);
  }
  return { frontmatter: { ...rest, metadata: strings }, diagnostics };
}
