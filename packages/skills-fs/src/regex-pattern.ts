import { createRequire } from 'node:module';
import { InvalidParametersError } from '@nexus/core';

/**
 * re2js, loaded as CommonJS from the file that worker threads load too (see
 * {@link re2jsModulePath}), so that a search on the calling thread finds it loaded already.
 */
const load = createRequire(import.meta.url);
const re2jsPath = load.resolve('re2js');
const { RE2JS } = load(re2jsPath) as typeof import('re2js');

/**
 * Compiles a pattern from the LLM, turning a syntax error into `invalid_input` on `parameter`.
 * Tries Unicode mode first (so `\p{L}` works) and falls back to legacy mode for patterns only it
 * accepts (such as `\-` outside a class). Returns the flags that worked.
 */
export function compilePattern(pattern: string, flags: string, parameter = 'pattern'): RegExp {
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      throw new InvalidParametersError(`\`${parameter}\` is not a valid regular expression: ${(error as Error).message}`, { parameter });
    }
  }
}

/** `\k<name>`: RE2 has no back-references and would read it as the text `k<name>`. */
const NAMED_BACK_REFERENCE = /\\k</;

/**
 * The pattern in RE2 syntax, with the `i`, `m` and `s` of `flags` inline, when RE2 can run it:
 * RE2 (the re2js package) matches in time linear in the input, so no pattern can make it
 * backtrack. `undefined` for what only JavaScript's backtracking engine can run — look-arounds
 * and back-references — which must then run under a time limit.
 */
export function linearSource(pattern: string, flags: string): string | undefined {
  if (NAMED_BACK_REFERENCE.test(pattern)) return undefined;
  const inline = [...flags].filter((flag) => 'ims'.includes(flag)).join('');
  const source = `${inline ? `(?${inline})` : ''}${RE2JS.translateRegExp(pattern)}`;
  try {
    RE2JS.compile(source);
    return source;
  } catch {
    return undefined;
  }
}

/** Where a task loads re2js from (with `createRequire(path)(path)`). */
export function re2jsModulePath(): string {
  return re2jsPath;
}

/**
 * Converts Python-style references in a replacement (`\1`, `\g<1>`, `\g<name>`) to JavaScript
 * ones (`$1`, `$<name>`); JavaScript forms (`$1`, `$<name>`, `$&`, `$$`) pass through, and `\\`
 * stands for one backslash.
 */
export function toJavaScriptReplacement(replacement: string): string {
  return replacement.replace(/\\(\\|\d{1,2}|g<(\w+)>)/g, (_match, body: string, group: string | undefined) => {
    if (body === '\\') return '\\';
    if (group !== undefined) return /^\d+$/.test(group) ? `$${group}` : `$<${group}>`;
    return `$${body}`;
  });
}
