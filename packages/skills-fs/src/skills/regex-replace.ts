import { convertLineEndings, InvalidParametersError } from '@nexus/core';
import { commitTextEdit } from '../commit-edit.js';
import { defineFileSkill } from '../define-file-skill.js';
import { compilePattern, linearSource, re2jsModulePath, toJavaScriptReplacement } from '../regex-pattern.js';
import { loadTextFile } from '../text-file.js';
import { runWorkerTask } from '../worker-task.js';

/** Arguments of `regex_replace`. */
export interface RegexReplaceArguments {
  path: string;
  pattern: string;
  replacement: string;
  count?: number;
  ignore_case?: boolean;
  multiline?: boolean;
  dotall?: boolean;
  dry_run?: boolean;
}

/** Most replacements one `regex_replace` call makes. */
const MAX_REGEX_REPLACEMENTS = 10_000;

interface ReplaceJob {
  text: string;
  source: string;
  flags: string;
  /** The pattern for RE2 with its flags inline (see linearSource); `undefined`: JavaScript's RegExp runs it. */
  linearSource: string | undefined;
  /** Where the worker loads re2js from. */
  re2jsModule: string;
  replacement: string;
  count: number;
  maxMatches: number;
}

/**
 * Runs in a worker thread (see runWorkerTask): the replacement loop, on RE2 (linear time) when it
 * can run the pattern, else on JavaScript's RegExp, which a bad pattern may hang.
 */
function replaceInWorker(): void {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const job = workerData as ReplaceJob;
  const replaceAll = (replacer: (...args: unknown[]) => string): string => {
    if (job.linearSource === undefined) return job.text.replace(new RegExp(job.source, `${job.flags}g`), replacer);
    const { createRequire } = process.getBuiltinModule('node:module');
    const { RE2JS } = createRequire(job.re2jsModule)(job.re2jsModule) as typeof import('re2js');
    return RE2JS.compile(job.linearSource).matcher(job.text).replaceAll(replacer);
  };
  const limit = job.count > 0 ? job.count : job.maxMatches + 1;
  let matches = 0;
  let tooMany = false;
  const text = replaceAll((...args: unknown[]) => {
    const match = args[0] as string;
    if (matches >= limit) return match;
    matches++;
    if (job.count === 0 && matches > job.maxMatches) {
      tooMany = true;
      return match;
    }
    return expand(job.replacement, args);
  });
  function expand(template: string, args: unknown[]): string {
    const hasGroups = typeof args[args.length - 1] === 'object' && args[args.length - 1] !== null;
    const groups = (hasGroups ? args[args.length - 1] : undefined) as Record<string, string | undefined> | undefined;
    const offsetIndex = hasGroups ? args.length - 3 : args.length - 2;
    const captures = args.slice(1, offsetIndex) as (string | undefined)[];
    const position = args[offsetIndex] as number;
    const subject = args[offsetIndex + 1] as string;
    const whole = args[0] as string;
    return template.replace(/\$(\$|&|`|'|\d{1,2}|<([^>]*)>)/g, (token, body: string, name: string | undefined) => {
      if (body === '$') return '$';
      if (body === '&') return whole;
      if (body === '`') return subject.slice(0, position);
      if (body === "'") return subject.slice(position + whole.length);
      if (name !== undefined) return groups?.[name] ?? '';
      const index = Number(body);
      if (index >= 1 && index <= captures.length) return captures[index - 1] ?? '';
      if (body.length === 2 && Number(body[0]) >= 1 && Number(body[0]) <= captures.length)
        return (captures[Number(body[0]) - 1] ?? '') + body[1];
      return token;
    });
  }
  parentPort?.postMessage({ type: 'done', value: { text, matches: tooMany ? -1 : matches } });
}

/** `regex_replace`: regular-expression find and replace in one file, time-limited. */
export const regexReplaceSkill = defineFileSkill<RegexReplaceArguments>({
  name: 'regex_replace',
  description:
    'Find and replace with a regular expression (JavaScript syntax) in one file. The replacement may use $1, $<name>, $& (or Python-style \\1, \\g<name>). ' +
    `count=0 replaces all matches (at most ${MAX_REGEX_REPLACEMENTS}); ignore_case, multiline (^/$ at line breaks) and dotall (. matches newlines) set flags. ` +
    "Line breaks are matched as \\n and written back in the file's style. A pattern that runs too long is stopped. dry_run=true shows the diff only.",
  readOnly: false,
  destructive: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'File to change.' },
      pattern: { type: 'string', minLength: 1, description: 'Regular expression to find.' },
      replacement: { type: 'string', description: 'Replacement text, with $1 / \\1 group references.' },
      count: { type: 'integer', minimum: 0, maximum: MAX_REGEX_REPLACEMENTS, default: 0, description: 'Most replacements (0: all).' },
      ignore_case: { type: 'boolean', default: false, description: 'Case-insensitive matching.' },
      multiline: { type: 'boolean', default: false, description: '^ and $ match at every line.' },
      dotall: { type: 'boolean', default: false, description: '. also matches line breaks.' },
      dry_run: { type: 'boolean', default: false, description: 'Only show the diff.' },
    },
    required: ['path', 'pattern', 'replacement'],
    additionalProperties: false,
  },
  run: async (args, files, { signal }) => {
    const {
      path,
      pattern,
      replacement,
      count = 0,
      ignore_case: ignoreCase = false,
      multiline = false,
      dotall = false,
      dry_run: dryRun = false,
    } = args;
    const regex = compilePattern(pattern, `${ignoreCase ? 'i' : ''}${multiline ? 'm' : ''}${dotall ? 's' : ''}`);
    const file = await loadTextFile(files, path);
    const job: ReplaceJob = {
      text: convertLineEndings(file.text, '\n'),
      source: regex.source,
      flags: regex.flags,
      linearSource: linearSource(pattern, regex.flags),
      re2jsModule: re2jsModulePath(),
      replacement: toJavaScriptReplacement(replacement),
      count,
      maxMatches: MAX_REGEX_REPLACEMENTS,
    };
    const result = await runWorkerTask<{ text: string; matches: number }>(replaceInWorker, job, {
      timeoutMs: files.options.regexTimeoutMs,
      timeoutMessage: `regex_replace: the pattern ${JSON.stringify(pattern)} took too long on ${file.display}; simplify it (nested quantifiers like (a+)+ backtrack exponentially)`,
      signal,
    });
    if (result.matches === -1) {
      throw new InvalidParametersError(
        `\`pattern\` matches more than ${MAX_REGEX_REPLACEMENTS} times in ${file.display}; narrow it or set count.`,
        { parameter: 'pattern' },
      );
    }
    if (result.matches === 0)
      throw new InvalidParametersError(`\`pattern\` ${JSON.stringify(pattern)} does not match anything in ${file.display}.`, {
        parameter: 'pattern',
      });
    const text = file.lineEnding === '\n' ? result.text : convertLineEndings(result.text, file.lineEnding);
    return commitTextEdit(files, file, text, { dryRun, what: `${result.matches} replacement(s)` });
  },
});
