import { UsageError } from './command.js';

const PAIR = /^([A-Za-z0-9_-]+)=(.*)$/s;

/**
 * The arguments of `nexus call`: one JSON object, or `name=value` pairs whose string values the
 * registry converts to each parameter's type.
 */
export function parseToolArguments(words: readonly string[]): Record<string, unknown> {
  const [first] = words;
  if (first === undefined) return {};
  if (first.trimStart().startsWith('{')) {
    if (words.length > 1) throw new UsageError(`Expected one JSON object as the arguments, got more after it: "${words[1]}".`);
    let value: unknown;
    try {
      value = JSON.parse(first);
    } catch (error) {
      throw new UsageError(`The arguments are not valid JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new UsageError('Expected the arguments to be a JSON object.');
    return value as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const word of words) {
    const match = PAIR.exec(word);
    if (!match) throw new UsageError(`Expected arguments as name=value pairs or one JSON object, got "${word}".`);
    args[match[1] as string] = match[2];
  }
  return args;
}
