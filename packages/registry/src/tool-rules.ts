import { ConfigError, canonicalJson, isPathParameter, normalizePath, resolveRealPath, type SkillSpec, type ToolRule } from '@nexus/core';
import picomatch from 'picomatch';

/** The rule that decided a call, with its place in the policy's list (from 0). */
export interface MatchedRule {
  readonly rule: ToolRule;
  readonly index: number;
}

type Matcher = (value: string) => boolean;

interface CompiledRule extends MatchedRule {
  readonly patterns: readonly { name: string; isPath: boolean; matches: Matcher }[];
}

/** A tool's rules compiled once per working directory. */
type CompiledRules = Map<string, CompiledRule[]>;

const compiledByRules = new WeakMap<readonly ToolRule[], { cwd: string; byTool: CompiledRules }>();

function compile(rules: readonly ToolRule[], cwd: string): CompiledRules {
  const cached = compiledByRules.get(rules);
  if (cached?.cwd === cwd) return cached.byTool;
  const byTool: CompiledRules = new Map();
  rules.forEach((rule, index) => {
    const patterns = Object.entries(rule.match ?? {}).map(([name, pattern]) => {
      const isPath = isPathParameter(name);
      // A command's `*` spans slashes (`rm *` matches `rm -rf /`); a path's only with `**`.
      const matches = isPath ? picomatch(normalizePath(pattern, cwd), { dot: true }) : picomatch(pattern, { dot: true, bash: true });
      return { name, isPath, matches };
    });
    const list = byTool.get(rule.tool) ?? [];
    list.push({ rule, index, patterns });
    byTool.set(rule.tool, list);
  });
  compiledByRules.set(rules, { cwd, byTool });
  return byTool;
}

/** The forms of a text argument a pattern is tried on: whitespace collapsed, and without a leading tool name (`git push` for `git`). */
function textForms(tool: string, value: string): string[] {
  const text = value.trim().replace(/\s+/g, ' ');
  return text.startsWith(`${tool} `) ? [text, text.slice(tool.length + 1)] : [text];
}

async function argumentMatches(tool: string, pattern: CompiledRule['patterns'][number], value: unknown, cwd: string): Promise<boolean> {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (await argumentMatches(tool, pattern, item, cwd)) return true;
    return false;
  }
  const text = typeof value === 'string' ? value : typeof value === 'object' ? canonicalJson(value) : String(value);
  if (pattern.isPath && typeof value === 'string') return pattern.matches(await resolveRealPath(normalizePath(text, cwd)));
  return textForms(tool, text).some(pattern.matches);
}

/**
 * The first of `rules` that matches a call of `tool` with these (validated) arguments, or
 * `undefined`. Path arguments (see `isPathParameter`) are resolved against `cwd` — `..`, `~`
 * and symlinks included — before they are compared; other text has its whitespace collapsed.
 * An array matches when one of its items does.
 */
export async function findMatchingRule(
  rules: readonly ToolRule[],
  tool: string,
  args: Record<string, unknown>,
  cwd: string,
): Promise<MatchedRule | undefined> {
  for (const compiled of compile(rules, cwd).get(tool) ?? []) {
    let matches = true;
    for (const pattern of compiled.patterns) {
      if (!(await argumentMatches(tool, pattern, args[pattern.name], cwd))) {
        matches = false;
        break;
      }
    }
    if (matches) return compiled;
  }
  return undefined;
}

/** What {@link checkToolRules} reads of a registry: its skills' metadata. */
export interface RuleCatalogue {
  getSpec(name: string): SkillSpec | undefined;
}

/**
 * Throws a `ConfigError` naming the first rule that names a tool the registry does not have, or an
 * argument that tool does not take (`rules[2].match.cmd`), so that a misspelt rule is not silently
 * matching nothing.
 */
export function checkToolRules(registry: RuleCatalogue, rules: readonly ToolRule[]): void {
  rules.forEach((rule, index) => {
    const spec = registry.getSpec(rule.tool);
    if (!spec) throw new ConfigError(`\`rules[${index}].tool\`: no tool named "${rule.tool}".`);
    const properties = (spec.parameters as { properties?: Record<string, unknown> }).properties ?? {};
    for (const name of Object.keys(rule.match ?? {})) {
      if (!Object.hasOwn(properties, name)) {
        throw new ConfigError(`\`rules[${index}].match.${name}\`: "${rule.tool}" has no argument "${name}".`);
      }
    }
  });
}
