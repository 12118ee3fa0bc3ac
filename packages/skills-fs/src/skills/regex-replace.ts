import { InvalidParametersError } from '@nexus/core';
import { editTextFile } from '../commit-edit.js';
import { defineFileSkill } from '../define-file-skill.js';
import { LfView, type ViewEdit } from '../lf-view.js';
import { compilePattern, linearSource, re2jsModulePath, toJavaScriptReplacement } from '../regex-pattern.js';
import { runWorkerTask, type TaskMessage } from '../worker-task.js';

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
  /** Longest result allowed, in characters. */
  maxLength: number;
}

/** What the worker found: the replacements to make, or why none are made. */
type ReplaceResult = { edits: ViewEdit[] } | { tooMany: true } | { tooLong: number };

/**
 * Runs in a worker thread (see runWorkerTask): the match loop, on RE2 (linear time) when it can
 * run the pattern, else on JavaScript's RegExp, which a bad pattern may hang. It takes one match
 * at a time and returns the replacements, not the new text, stopping at the first match past the
 * limits: neither millions of matches nor a huge result are ever held (`String.replace` collecting
 * 30 million empty matches at once made V8 abort the whole process).
 */
function replaceInWorker(job: ReplaceJob, post: (message: TaskMessage) => void): void {
  type Match = { index: number; captures: (string | undefined)[]; groups: Record<string, string | undefined> | undefined };
  const nextMatch = matcher();
  const limit = job.count > 0 ? job.count : job.maxMatches + 1;
  const edits: [number, number, string][] = [];
  let length = job.text.length;
  for (let match = nextMatch(); match !== undefined && edits.length < limit; match = edits.length < limit ? nextMatch() : undefined) {
    const whole = match.captures[0] ?? '';
    const replacement = expand(job.replacement, match);
    edits.push([match.index, match.index + whole.length, replacement]);
    length += replacement.length - whole.length;
    if (length > job.maxLength) {
      post({ type: 'done', value: { tooLong: length } });
      return;
    }
  }
  post({ type: 'done', value: job.count === 0 && edits.length > job.maxMatches ? { tooMany: true } : { edits } });

  /** The next match each call, as `String.replace` would find them (an empty match moves on by one character). */
  function matcher(): () => Match | undefined {
    if (job.linearSource === undefined) {
      const regex = new RegExp(job.source, `${job.flags}g`);
      return () => {
        const found = regex.exec(job.text);
        if (found === null) return undefined;
        if (found[0] === '') regex.lastIndex = nextIndex(found.index, regex.unicode);
        return { index: found.index, captures: [...found], groups: found.groups };
      };
    }
    const { createRequire } = process.getBuiltinModule('node:module');
    const { RE2JS } = createRequire(job.re2jsModule)(job.re2jsModule) as typeof import('re2js');
    const pattern = RE2JS.compile(job.linearSource);
    // test() is several times faster than a matcher's find() over text without any match.
    if (!pattern.test(job.text)) return () => undefined;
    const found = pattern.matcher(job.text);
    const names = Object.keys(pattern.namedGroups());
    return () => {
      if (!found.find()) return undefined;
      const captures = Array.from({ length: found.groupCount() + 1 }, (_, group) => found.group(group) ?? undefined);
      const groups = names.length === 0 ? undefined : Object.fromEntries(names.map((name) => [name, found.group(name) ?? undefined]));
      return { index: found.start(), captures, groups };
    };
  }
  function nextIndex(index: number, unicode: boolean): number {
    const code = job.text.charCodeAt(index);
    const pair = unicode && code >= 0xd800 && code <= 0xdbff && (job.text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
    return index + (pair ? 2 : 1);
  }
  function expand(template: string, match: Match): string {
    const { groups, captures, index: position } = match;
    const subject = job.text;
    const whole = captures[0] ?? '';
    return template.replace(/\$(\$|&|`|'|\d{1,2}|<([^>]*)>)/g, (token, body: string, name: string | undefined) => {
      if (body === '$') return '$';
      if (body === '&') return whole;
      if (body === '`') return subject.slice(0, position);
      if (body === "'") return subject.slice(position + whole.length);
      if (name !== undefined) return groups?.[name] ?? '';
      const index = Number(body);
      if (index >= 1 && index < captures.length) return captures[index] ?? '';
      if (body.length === 2 && Number(body[0]) >= 1 && Number(body[0]) < captures.length)
        return (captures[Number(body[0])] ?? '') + body[1];
      return token;
    });
  }
}

/** `regex_replace`: regular-expression find and replace in one file, time-limited. */
export const regexReplaceSkill = defineFileSkill<RegexReplaceArguments>({
  name: 'regex_replace',
  title: 'Replace by regex',
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
  run: (args, files, { signal }) => {
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
    return editTextFile(files, path, { dryRun, parameter: 'replacement', signal }, async (file, limit) => {
      const view = new LfView(file.text);
      const job: ReplaceJob = {
        text: view.text,
        source: regex.source,
        flags: regex.flags,
        linearSource: linearSource(pattern, regex.flags),
        re2jsModule: re2jsModulePath(),
        replacement: toJavaScriptReplacement(replacement),
        count,
        maxMatches: MAX_REGEX_REPLACEMENTS,
        maxLength: limit.max,
      };
      const result = await runWorkerTask<ReplaceResult, never, ReplaceJob>(replaceInWorker, job, {
        timeoutMs: files.options.regexTimeoutMs,
        timeoutMessage: `regex_replace: the pattern ${JSON.stringify(pattern)} took too long on ${file.display}; simplify it (nested quantifiers like (a+)+ backtrack exponentially)`,
        signal,
      });
      if ('tooLong' in result) throw limit.exceeded(result.tooLong);
      if ('tooMany' in result) {
        throw new InvalidParametersError(
          `\`pattern\` matches more than ${MAX_REGEX_REPLACEMENTS} times in ${file.display}; narrow it or set count.`,
          { parameter: 'pattern' },
        );
      }
      if (result.edits.length === 0)
        throw new InvalidParametersError(`\`pattern\` ${JSON.stringify(pattern)} does not match anything in ${file.display}.`, {
          parameter: 'pattern',
        });
      return { text: view.apply(result.edits, file.lineEnding, limit), what: `${result.edits.length} replacement(s)` };
    });
  },
});
