import { stat } from 'node:fs/promises';
import { ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { searchBuiltin } from '../grep/builtin-search.js';
import { formatGrepResults, limitMatches } from '../grep/format-grep.js';
import type { GrepOutcome, GrepQuery } from '../grep/grep-query.js';
import { findRipgrep, RipgrepPatternError, searchWithRipgrep } from '../grep/ripgrep-search.js';
import { compilePattern } from '../regex-pattern.js';

/** Arguments of `grep`. */
export interface GrepArguments {
  pattern: string;
  path: string;
  recursive?: boolean;
  ignore_case?: boolean;
  max_matches?: number;
  include?: string;
  context?: number;
}

/** Most matches one `grep` call returns. */
const MAX_GREP_MATCHES = 10_000;

/** `grep`: regular-expression search in file contents, with ripgrep when it is installed. */
export const grepSkill = defineFileSkill<GrepArguments>({
  name: 'grep',
  title: 'Search file contents',
  idempotent: true,
  description:
    'Search file contents with a regular expression. Output lines are "path:line:text" (context lines "path-line-text", groups separated by "--"). ' +
    'Searches a file or a directory tree (recursive by default; .git, node_modules, binary files and symlinks are skipped). ' +
    'include filters files by glob ("*.py", "src/**/*.ts"); context adds lines around each match; results stop at max_matches. Uses ripgrep when installed.',
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'Regular expression to search for.' },
      path: { type: 'string', description: 'File or directory to search ("." for the working directory).' },
      recursive: { type: 'boolean', default: true, description: 'Search sub-directories.' },
      ignore_case: { type: 'boolean', default: false, description: 'Case-insensitive search.' },
      max_matches: { type: 'integer', minimum: 1, maximum: MAX_GREP_MATCHES, default: 100, description: 'Most matching lines to return.' },
      include: { type: 'string', minLength: 1, description: 'Only files matching this glob, e.g. "*.ts".' },
      context: { type: 'integer', minimum: 0, maximum: 20, default: 0, description: 'Lines of context before and after each match.' },
    },
    required: ['pattern', 'path'],
    additionalProperties: false,
  },
  run: async (args, files, { signal }) => {
    const { pattern, path, recursive = true, ignore_case: ignoreCase = false, max_matches: maxMatches = 100, include, context = 0 } = args;
    compilePattern(pattern, ignoreCase ? 'i' : '');
    const root = await files.paths.authorize(path, { mustExist: true });
    const rootIsDirectory = (await stat(root)).isDirectory();
    if (rootIsDirectory) await (await files.opener.openDirectory(root)).close();
    else await (await files.opener.openApproved(root, path)).handle.close();
    const { grepEngine, regexTimeoutMs, searchTimeoutMs, maxLineLength } = files.options;
    const query: GrepQuery = {
      root,
      rootIsDirectory,
      pattern,
      ignoreCase,
      recursive,
      include,
      context,
      maxMatches,
      maxLineLength,
      timeoutMs: searchTimeoutMs,
      regexTimeoutMs,
      signal,
    };
    // Whatever an engine found is filtered through the sandbox: blocked paths and hard links
    // inside the tree are refused here, once per file.
    const readable = new Map<string, Promise<boolean>>();
    const accept = (file: string) => {
      let verdict = readable.get(file);
      if (!verdict) readable.set(file, (verdict = files.paths.isFoundFileReadable(file)));
      return verdict;
    };
    const rg = grepEngine === 'builtin' ? undefined : await findRipgrep();
    if (grepEngine === 'ripgrep' && !rg) return ToolResult.fail('grep is set to use ripgrep, but `rg` is not on PATH.', 'execution_failed');
    let outcome: GrepOutcome;
    let engine = rg ? 'ripgrep' : 'builtin';
    try {
      outcome = rg ? await searchWithRipgrep(rg, query, files) : await searchBuiltin(query, accept);
    } catch (error) {
      if (!(error instanceof RipgrepPatternError)) throw error;
      engine = 'builtin';
      outcome = await searchBuiltin(query, accept);
    }
    const verdicts = await Promise.all(outcome.files.map((result) => accept(result.file)));
    const permitted = outcome.files.filter((_, index) => verdicts[index]);
    const limited = limitMatches(permitted, maxMatches);
    const names = new Map<string, string>();
    for (const result of limited.files) names.set(result.file, await files.paths.display(result.file));
    const data = {
      engine,
      matches: limited.matches,
      files: limited.files.length,
      truncated: limited.dropped || outcome.truncated,
      results: limited.files.flatMap((result) =>
        result.lines
          .filter((line) => line.match)
          .map((line) => ({ path: names.get(result.file) ?? result.file, line: line.line, text: line.text })),
      ),
    };
    if (limited.matches === 0)
      return ToolResult.ok(`No matches for ${JSON.stringify(pattern)} in ${await files.paths.display(root)}.`, data);
    const body = formatGrepResults(limited.files, (file) => names.get(file) ?? file, context > 0);
    const summary = data.truncated
      ? `[Stopped at ${limited.matches} matches (max_matches=${maxMatches}); there are more. Narrow the pattern, path or include.]`
      : `[${limited.matches} match${limited.matches === 1 ? '' : 'es'} in ${limited.files.length} file${limited.files.length === 1 ? '' : 's'}.]`;
    return ToolResult.ok(`${body}\n${summary}`, data);
  },
});
