import { ConfigError, canonicalJson, isPathParameter, normalizePath, resolveRealPath, type SkillSpec, type ToolRule } from '@nexus/core';
import picomatch from 'picomatch';

/** The rule that decided a call, with its place in the policy's list (from 0). */
export interface MatchedRule {
  readonly rule: ToolRule;
  readonly index: number;
}

type Matcher = (value: string) => boolean;

interface CompiledPattern {
  readonly name: string;
  readonly isPath: boolean;
  readonly matches: Matcher;
}

interface CompiledRule extends MatchedRule {
  readonly patterns: readonly CompiledPattern[];
  /** Whether a pattern is about a path argument, which must be resolved (asynchronously) first. */
  readonly hasPathPattern: boolean;
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
      const glob = isPath
        ? picomatch.makeRe(normalizePath(pattern, cwd), { dot: true })
        : picomatch.makeRe(pattern, { dot: true, bash: true });
      // The bare expression: picomatch's matcher function does much more per call than a test.
      const matches = (value: string) => glob.test(value);
      return { name, isPath, matches };
    });
    const list = byTool.get(rule.tool) ?? [];
    list.push({ rule, index, patterns, hasPathPattern: patterns.some((pattern) => pattern.isPath) });
    byTool.set(rule.tool, list);
  });
  compiledByRules.set(rules, { cwd, byTool });
  return byTool;
}

/** The texts of one argument a pattern is tried on, worked out once per call. */
class CallTexts {
  readonly #texts = new Map<string, string[]>();
  readonly #paths = new Map<string, Promise<string[]>>();

  constructor(
    readonly tool: string,
    readonly args: Record<string, unknown>,
    readonly cwd: string,
  ) {}

  /** A text argument with its whitespace collapsed, also without a leading tool name (`git push` for `git`); every item of an array. */
  texts(name: string): string[] {
    let texts = this.#texts.get(name);
    if (!texts) {
      texts = items(this.args[name]).flatMap((value) => {
        const text = (typeof value === 'string' ? value : typeof value === 'object' ? canonicalJson(value) : String(value))
          .trim()
          .replace(/\s+/g, ' ');
        return text.startsWith(`${this.tool} `) ? [text, text.slice(this.tool.length + 1)] : [text];
      });
      this.#texts.set(name, texts);
    }
    return texts;
  }

  /** A path argument resolved against the working directory, symlinks included; every item of an array. */
  paths(name: string): Promise<string[]> {
    let paths = this.#paths.get(name);
    if (!paths) {
      const values = items(this.args[name]).filter((value): value is string => typeof value === 'string');
      paths = Promise.all(values.map((value) => resolveRealPath(normalizePath(value, this.cwd))));
      this.#paths.set(name, paths);
    }
    return paths;
  }
}

function items(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.filter((item) => item !== undefined && item !== null) : [value];
}

function textMatches(texts: CallTexts, pattern: CompiledPattern): boolean {
  return texts.texts(pattern.name).some(pattern.matches);
}

async function pathsMatch(texts: CallTexts, rule: CompiledRule): Promise<boolean> {
  for (const pattern of rule.patterns) {
    if (pattern.isPath && !(await texts.paths(pattern.name)).some(pattern.matches)) return false;
  }
  return true;
}

async function firstMatchFrom(rules: readonly CompiledRule[], from: number, texts: CallTexts): Promise<MatchedRule | undefined> {
  for (const rule of rules.slice(from)) {
    if (!rule.patterns.every((pattern) => pattern.isPath || textMatches(texts, pattern))) continue;
    if (!rule.hasPathPattern || (await pathsMatch(texts, rule))) return rule;
  }
  return undefined;
}

/**
 * The first of `rules` that matches a call of `tool` with these (validated) arguments, or
 * `undefined`. Path arguments (see `isPathParameter`) are resolved against `cwd` — `..`, `~`
 * and symlinks included — before they are compared; other text has its whitespace collapsed.
 * An array matches when one of its items does. Synchronous until a rule about a path is met.
 */
export function findMatchingRule(
  rules: readonly ToolRule[],
  tool: string,
  args: Record<string, unknown>,
  cwd: string,
): MatchedRule | undefined | Promise<MatchedRule | undefined> {
  const candidates = compile(rules, cwd).get(tool);
  if (!candidates) return undefined;
  const texts = new CallTexts(tool, args, cwd);
  for (const [index, rule] of candidates.entries()) {
    if (rule.hasPathPattern) return firstMatchFrom(candidates, index, texts);
    if (rule.patterns.every((pattern) => textMatches(texts, pattern))) return rule;
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
