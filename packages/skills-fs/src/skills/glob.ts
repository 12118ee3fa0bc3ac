import { InvalidParametersError, ToolResult } from '@nexus/core';
import { defineFileSkill } from '../define-file-skill.js';
import { createGlobMatcher } from '../glob-matcher.js';
import { SKIPPED_DIRECTORIES, walkFiles } from '../walk-files.js';

/** Arguments of `glob`. */
export interface GlobArguments {
  pattern: string;
  path?: string;
  max_results?: number;
  exclude?: string | string[];
}

/** Most results `glob` returns at once. */
const MAX_GLOB_RESULTS = 100_000;

function mentionsSkipped(pattern: string, name: string): boolean {
  return pattern.split('/').includes(name);
}

/** `glob`: files whose path matches a glob pattern. */
export const globSkill = defineFileSkill<GlobArguments>({
  name: 'glob',
  title: 'Find files',
  idempotent: true,
  description:
    'Find files by glob pattern, e.g. "**/*.ts", "src/**/test_*.py" or "*.md" (a pattern without "/" matches file names at any depth). ' +
    'Results are sorted and capped at max_results. .git and node_modules are skipped unless the pattern names them; symlinks are not followed.',
  readOnly: true,
  destructive: false,
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'Glob pattern, relative to path.' },
      path: { type: 'string', default: '.', description: 'Directory to search (default: the working directory).' },
      max_results: { type: 'integer', minimum: 1, maximum: MAX_GLOB_RESULTS, default: 100, description: 'Most paths to return.' },
      exclude: {
        anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
        description: 'Glob pattern(s) of files or directories to leave out, e.g. ["dist/**", "*.min.js"].',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  run: async ({ pattern, path = '.', max_results: maxResults = 100, exclude = [] }, files, { signal }) => {
    const root = await files.paths.authorize(path, { mustExist: true });
    await (await files.opener.openDirectory(root)).close();
    const excludes = typeof exclude === 'string' ? [exclude] : exclude;
    if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
      throw new InvalidParametersError('Expected `pattern` to be relative to `path` without ".." segments; put the directory in `path`.', {
        parameter: 'pattern',
      });
    }
    const matches = createGlobMatcher(pattern);
    const excluded = excludes.length > 0 ? createGlobMatcher(excludes) : () => false;
    const skipped = SKIPPED_DIRECTORIES.filter((name) => !mentionsSkipped(pattern, name));
    const checkDirectories = files.paths.hasBlockedPaths;
    const walk = await walkFiles({
      root,
      signal,
      enterDirectory: async (relativePath, name) =>
        !skipped.includes(name) &&
        !excluded(relativePath) &&
        (!checkDirectories || (await files.paths.isReadable(`${root}/${relativePath}`))),
    });
    const found = walk.files.filter((file) => matches(file) && !excluded(file));
    const shown: string[] = [];
    for (const file of found) {
      if (shown.length === maxResults) break;
      if (!checkDirectories || (await files.paths.isReadable(`${root}/${file}`))) shown.push(file);
    }
    const base = await files.paths.display(root);
    const paths = base === '.' ? shown : shown.map((file) => `${base}/${file}`);
    const remarks: string[] = [];
    if (found.length > shown.length && shown.length === maxResults)
      remarks.push(`[Showing ${shown.length} of ${found.length} matches; narrow the pattern or raise max_results.]`);
    if (walk.truncated) remarks.push('[The directory tree is too large; the walk stopped early. Search a sub-directory.]');
    if (walk.unreadable > 0)
      remarks.push(
        `[${walk.unreadable} director${walk.unreadable === 1 ? 'y' : 'ies'} could not be read (no permission, or nested too deep) and ${walk.unreadable === 1 ? 'was' : 'were'} skipped.]`,
      );
    const output = paths.length === 0 ? `No files match ${pattern} under ${base}.` : paths.join('\n');
    return ToolResult.ok([output, ...remarks].join('\n'), {
      files: paths,
      total: found.length,
      truncated: found.length > shown.length || walk.truncated,
    });
  },
});
