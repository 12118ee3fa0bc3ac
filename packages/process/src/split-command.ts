import { InvalidParametersError } from '@nexus/core';

/** Options of {@link splitCommand}. */
export interface SplitCommandOptions {
  /** Parameter name used in error messages (default `command`). */
  parameter?: string;
  /** Appended to every refusal, e.g. where to go instead (`Use shell_UNSAFE for pipes.`). */
  hint?: string;
}

const OPERATOR_CHARACTERS = new Set([';', '&', '|', '<', '>', '(', ')']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
// `$` followed by one of these starts an expansion in a POSIX shell: $name, ${…}, $(…), $((…)), $1, $@, $*, $#, $?, $$, $!, $-, $'…', $"…".
const EXPANSION_START = /[A-Za-z_{(0-9@*#?$!\-'"]/;
// Inside double quotes only these characters can follow a backslash as an escape.
const DOUBLE_QUOTE_ESCAPABLE = new Set(['$', '`', '"', '\\']);

function describeOperator(command: string, index: number): string {
  const two = command.slice(index, index + 2);
  const names: Record<string, string> = {
    '&&': 'the command list operator `&&`',
    '||': 'the command list operator `||`',
    '>>': 'the redirection `>>`',
    '<<': 'the here-document `<<`',
    '<(': 'the process substitution `<(`',
    '>(': 'the process substitution `>(`',
    '>&': 'the redirection `>&`',
    '&>': 'the redirection `&>`',
    '|&': 'the pipe `|&`',
  };
  const single: Record<string, string> = {
    ';': 'the command separator `;`',
    '&': 'the background operator `&`',
    '|': 'the pipe `|`',
    '<': 'the redirection `<`',
    '>': 'the redirection `>`',
    '(': 'a subshell `(`',
    ')': 'a subshell `)`',
  };
  return names[two] ?? single[command[index] as string] ?? `\`${command[index]}\``;
}

/**
 * Splits a command line into argv the way a POSIX shell would (whitespace, single quotes,
 * double quotes, backslash escapes), for running without a shell. Anything a shell would treat
 * as more than one plain command is refused with an {@link InvalidParametersError} that names
 * the parameter and the construct: command separators and lists (`;` `&&` `||` `&`), pipes,
 * redirections and here-documents, subshells, command and process substitution (`$(…)`,
 * backticks, `<(…)`), parameter expansion (`$VAR`, `${…}`, also inside double quotes),
 * unquoted newlines, carriage returns and NUL bytes anywhere, comments and leading `NAME=value`
 * assignments. Globs, `~` and braces are kept literally (nothing expands them).
 */
export function splitCommand(command: string, options: SplitCommandOptions = {}): string[] {
  const { parameter = 'command', hint = '' } = options;
  const refuse = (what: string, index: number): never => {
    const message = `\`${parameter}\` contains ${what} at position ${index + 1}; it runs a single program without a shell, so shell syntax is refused.${hint ? ` ${hint}` : ''}`;
    throw new InvalidParametersError(message, { parameter });
  };
  if (typeof command !== 'string')
    throw new InvalidParametersError(`Expected \`${parameter}\` to be a string, got ${command === null ? 'null' : typeof command}.`, {
      parameter,
    });

  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (char === '\0') refuse('a NUL byte', index);
    if (char === '\r') refuse('a carriage return', index);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (char === '`') refuse('a backtick command substitution', index);
    if (char === '$' && EXPANSION_START.test(command[index + 1] ?? '')) {
      const next = command[index + 1];
      refuse(next === '(' ? 'a command substitution `$(`' : next === '{' ? 'a parameter expansion `${`' : 'a shell expansion `$`', index);
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && DOUBLE_QUOTE_ESCAPABLE.has(command[index + 1] ?? '')) word += command[++index];
      else word += char;
      continue;
    }
    if (char === '\n') refuse('a newline (a command separator)', index);
    if (char === ' ' || char === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    if (OPERATOR_CHARACTERS.has(char)) refuse(describeOperator(command, index), index);
    if (char === '#' && !inWord) refuse('a comment `#`', index);
    inWord = true;
    if (char === "'" || char === '"') quote = char;
    else if (char === '\\') {
      const next = command[index + 1];
      if (next === undefined) refuse('a trailing backslash', index);
      if (next === '\n') refuse('a line continuation (backslash-newline)', index);
      word += next;
      index++;
    } else word += char;
  }
  if (quote)
    throw new InvalidParametersError(`\`${parameter}\` has an unterminated ${quote === '"' ? 'double' : 'single'} quote.`, { parameter });
  if (inWord) words.push(word);
  if (words.length === 0)
    throw new InvalidParametersError(`\`${parameter}\` is empty; expected a program and its arguments.`, { parameter });
  if (ASSIGNMENT.test(words[0] as string)) refuse('an environment assignment `NAME=value` before the program', command.search(/\S/));
  return words;
}
