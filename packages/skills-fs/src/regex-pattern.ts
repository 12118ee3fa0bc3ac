import { InvalidParametersError } from '@nexus/core';

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
