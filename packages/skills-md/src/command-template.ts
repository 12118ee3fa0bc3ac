import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { InvalidParametersError, isWithin } from '@nexus/core';
import { splitCommand } from '@nexus/process';
import { SKILL_DIR_PLACEHOLDER } from './manifest-limits.js';
import type { ParameterDefinition } from './skill-manifest.js';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A piece of an argument: literal text, or the value of a parameter. */
type Part = { text: string } | { parameter: string };

/** One argument of a compiled template. */
interface TemplateArgument {
  readonly parts: readonly Part[];
  /** The argument is exactly one placeholder (`{input}`), so its value is a whole argument of its own. */
  readonly standalone: boolean;
  /** A literal option (`--to`, `-o`) that an absent optional value right after it takes along. */
  readonly flag: boolean;
}

/** A command template split into a program and arguments once, at load time. */
export interface CommandTemplate {
  /** The template as written. */
  readonly source: string;
  /** The program: an absolute path inside the package, or a bare name looked up on `PATH`. */
  readonly program: string;
  readonly arguments: readonly TemplateArgument[];
  /** The parameters the template uses. */
  readonly parameters: ReadonlySet<string>;
}

/** Why a template cannot be used; the message says what to change. */
export class CommandTemplateError extends Error {
  override name = 'CommandTemplateError';
}

function realpathInside(path: string, folder: string): string | undefined {
  try {
    const real = realpathSync.native(path);
    return isWithin(real, folder) ? real : undefined;
  } catch {
    return undefined;
  }
}

function resolveProgram(program: string, folder: string): string {
  if (!program.includes('/')) return program;
  const path = resolve(folder, program);
  const real = realpathInside(path, folder);
  if (!isWithin(path, folder))
    throw new CommandTemplateError(`the program "${program}" is outside the package folder; a program with a "/" must be a file inside it`);
  if (real === undefined)
    throw new CommandTemplateError(`the program "${program}" does not exist inside the package folder (or leads out of it)`);
  try {
    accessSync(real, constants.X_OK);
  } catch {
    throw new CommandTemplateError(
      `the program "${program}" is not executable (chmod +x it, or run it through an interpreter: sh ${program})`,
    );
  }
  return real;
}

/** A literal argument naming a file inside the package (`scripts/convert.py`) becomes that file's absolute path (seed 003's trace). */
function packageFile(text: string, folder: string): string | undefined {
  if (text.startsWith('-') || isAbsolute(text) || text === '') return undefined;
  const real = realpathInside(resolve(folder, text), folder);
  if (real === undefined) return undefined;
  try {
    return statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

function splitParts(word: string, folder: string, parameters: Readonly<Record<string, ParameterDefinition>>): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of word.matchAll(PLACEHOLDER)) {
    const [whole, name] = match as unknown as [string, string];
    if (match.index > last) parts.push({ text: word.slice(last, match.index) });
    if (name === SKILL_DIR_PLACEHOLDER) parts.push({ text: folder });
    else if (parameters[name]?.type === 'string_list')
      throw new CommandTemplateError(`the placeholder {${name}} is a list (string_list), which only script commands take`);
    else if (Object.hasOwn(parameters, name)) parts.push({ parameter: name });
    else
      throw new CommandTemplateError(
        `the placeholder {${name}} names no parameter (parameters: ${Object.keys(parameters).join(', ') || 'none'})`,
      );
    last = match.index + whole.length;
  }
  if (last < word.length) parts.push({ text: word.slice(last) });
  // Neighbouring literal pieces ({skill_dir}/x) become one.
  return parts.reduce<Part[]>((merged, part) => {
    const previous = merged.at(-1);
    if (previous && 'text' in previous && 'text' in part) merged[merged.length - 1] = { text: previous.text + part.text };
    else merged.push(part);
    return merged;
  }, []);
}

/**
 * Splits a command template into a program and arguments, once: shell quoting rules, no
 * expansion, and shell operators or substitutions refused (`@nexus/process`'s `splitCommand`).
 * `{name}` placeholders must name a parameter (or be `{skill_dir}`, the package folder); the
 * program may not hold one. A program with a `/` must be an executable file inside `folder`
 * (a real path); a literal argument naming a file inside `folder` becomes its absolute path.
 * Throws a {@link CommandTemplateError}.
 */
export function compileCommandTemplate(
  source: string,
  folder: string,
  parameters: Readonly<Record<string, ParameterDefinition>>,
): CommandTemplate {
  let words: string[];
  try {
    words = splitCommand(source, { parameter: 'command', hint: 'Templates run one program without a shell.' });
  } catch (error) {
    throw new CommandTemplateError((error as Error).message.replace(/^`command` /, 'the template '));
  }
  const [programWord, ...rest] = words as [string, ...string[]];
  const programParts = splitParts(programWord, folder, parameters);
  if (programParts.length !== 1 || !('text' in programParts[0]!))
    throw new CommandTemplateError('the program cannot come from a parameter; it must be written in the template');
  const program = resolveProgram(programParts[0].text, folder);
  const used = new Set<string>();
  const templateArguments = rest.map((word): TemplateArgument => {
    const parts = splitParts(word, folder, parameters);
    for (const part of parts) if ('parameter' in part) used.add(part.parameter);
    const [first] = parts;
    if (parts.length === 1 && first && 'text' in first) {
      const file = word.includes(`{${SKILL_DIR_PLACEHOLDER}}`) ? undefined : packageFile(first.text, folder);
      return { parts: [{ text: file ?? first.text }], standalone: false, flag: first.text.startsWith('-') };
    }
    return { parts, standalone: parts.length === 1, flag: false };
  });
  return { source, program, arguments: templateArguments, parameters: used };
}

/**
 * The argv of a template with these values (strings, already checked and converted). An absent
 * value removes its argument, and the literal flag right before it; a value of a standalone
 * placeholder starting with `-` is refused unless the parameter has `allow_dash`; a NUL byte,
 * newline or carriage return is refused in any value. Values are never split or rewritten.
 */
export function fillCommandTemplate(
  template: CommandTemplate,
  values: Readonly<Record<string, string | undefined>>,
  parameters: Readonly<Record<string, ParameterDefinition>>,
): string[] {
  const argv: string[] = [];
  let previousFlag = false;
  for (const argument of template.arguments) {
    let text = '';
    let absent = false;
    for (const part of argument.parts) {
      if ('text' in part) {
        text += part.text;
        continue;
      }
      const value = values[part.parameter];
      if (value === undefined) {
        absent = true;
        continue;
      }
      if (/[\0\n\r]/.test(value)) {
        throw new InvalidParametersError(
          `\`${part.parameter}\` contains a NUL byte, newline or carriage return, which a command argument cannot hold.`,
          {
            parameter: part.parameter,
          },
        );
      }
      if (argument.standalone && value.startsWith('-') && !parameters[part.parameter]?.allow_dash) {
        throw new InvalidParametersError(
          `\`${part.parameter}\` starts with "-", which the program would read as an option; it is refused (the skill can set \`allow_dash: true\` where that is meant).`,
          { parameter: part.parameter },
        );
      }
      text += value;
    }
    if (absent) {
      if (previousFlag) argv.pop();
      previousFlag = false;
      continue;
    }
    argv.push(text);
    previousFlag = argument.flag;
  }
  return argv;
}
