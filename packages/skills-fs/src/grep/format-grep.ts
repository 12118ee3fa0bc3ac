import type { GrepFileResult } from './grep-query.js';

/**
 * Formats search results like `grep -n` / ripgrep: `path:line:text` for matches,
 * `path-line-text` for context lines, and `--` between groups that are not adjacent.
 * `name` turns a real path into the name shown.
 */
export function formatGrepResults(results: readonly GrepFileResult[], name: (file: string) => string, withSeparators: boolean): string {
  const out: string[] = [];
  let previous: { file: string; line: number } | undefined;
  for (const result of results) {
    const shown = name(result.file);
    for (const line of result.lines) {
      if (withSeparators && previous && (previous.file !== result.file || line.line !== previous.line + 1)) out.push('--');
      out.push(`${shown}${line.match ? ':' : '-'}${line.line}${line.match ? ':' : '-'}${line.text}`);
      previous = { file: result.file, line: line.line };
    }
  }
  return out.join('\n');
}

/**
 * Keeps the first `maxMatches` matching lines in path and line order (ripgrep reports files in
 * whatever order its threads finish), with the context lines that belong to them.
 */
export function limitMatches(
  results: readonly GrepFileResult[],
  maxMatches: number,
): { files: GrepFileResult[]; matches: number; dropped: boolean } {
  const sorted = [...results].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const files: GrepFileResult[] = [];
  let matches = 0;
  let dropped = false;
  for (const result of sorted) {
    if (matches >= maxMatches) {
      dropped = true;
      break;
    }
    const lines = [...result.lines].sort((a, b) => a.line - b.line);
    const kept = [];
    let lastMatch = -1;
    for (const line of lines) {
      if (line.match) {
        if (matches >= maxMatches) {
          dropped = true;
          break;
        }
        matches++;
        lastMatch = kept.length;
      }
      kept.push(line);
    }
    // Context after the last kept match stays; context that only leads to a dropped match goes.
    const end = dropped ? kept.findIndex((line, index) => index > lastMatch && lines[index + 1]?.match === true && !line.match) : -1;
    files.push({ file: result.file, lines: end === -1 ? kept : kept.slice(0, end) });
  }
  return { files, matches, dropped };
}
