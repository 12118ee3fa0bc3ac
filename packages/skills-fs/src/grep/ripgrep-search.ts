import { access, constants } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { TimeoutError } from '@nexus/core';
import { resolveWorkingDirectory, runProcess } from '@nexus/process';
import type { FileSandbox } from '../file-sandbox.js';
import { cutLine, type GrepFileResult, type GrepOutcome, type GrepQuery, SKIPPED_DIRECTORIES } from './grep-query.js';

/** Cap of ripgrep's output, in bytes; beyond it matches are dropped and the result says so. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

let ripgrepPath: Promise<string | undefined> | undefined;

/** The `rg` executable on `PATH`, looked up once per process; `undefined` when there is none. */
export function findRipgrep(): Promise<string | undefined> {
  ripgrepPath ??= (async () => {
    for (const directory of (process.env.PATH ?? '').split(delimiter)) {
      if (!directory) continue;
      const candidate = join(directory, 'rg');
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
    return undefined;
  })();
  return ripgrepPath;
}

/** Thrown when ripgrep cannot parse the pattern, so the caller can use the built-in engine. */
export class RipgrepPatternError extends Error {}

/** The ripgrep arguments for a query; the pattern and path are passed after `-e` / `--`. */
export function ripgrepArguments(query: GrepQuery): string[] {
  const args = ['--no-config', '--null', '--line-number', '--with-filename', '--no-heading', '--color', 'never', '--crlf'];
  args.push(
    '--no-ignore',
    '--hidden',
    '--max-count',
    // One more than wanted, so that a file with more matches than that shows as such.
    String(query.maxMatches + 1),
    '--max-columns',
    String(query.maxLineLength * 4),
    '--max-columns-preview',
  );
  for (const name of SKIPPED_DIRECTORIES) args.push('-g', `!${name}`);
  if (query.ignoreCase) args.push('--ignore-case');
  else args.push('--case-sensitive');
  if (query.context > 0) args.push('--context', String(query.context));
  if (!query.recursive) args.push('--max-depth', '1');
  if (query.include !== undefined) args.push('-g', query.include);
  args.push('-e', query.pattern, '--', query.root);
  return args;
}

/** Parses `path\0number:text` (match) and `path\0number-text` (context) lines. */
export function parseRipgrepOutput(stdout: string, maxLineLength: number): GrepFileResult[] {
  const byFile = new Map<string, GrepFileResult>();
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf('\n', start);
    if (end === -1) end = stdout.length;
    const line = stdout.slice(start, end);
    start = end + 1;
    const nul = line.indexOf('\0');
    if (nul === -1) continue;
    const rest = /^(\d+)([:-])/.exec(line.slice(nul + 1, nul + 24));
    if (!rest) continue;
    const file = line.slice(0, nul);
    let result = byFile.get(file);
    if (!result) byFile.set(file, (result = { file, lines: [] }));
    result.lines.push({
      line: Number(rest[1]),
      match: rest[2] === ':',
      text: cutLine(line.slice(nul + 1 + rest[0].length), maxLineLength),
    });
  }
  return [...byFile.values()];
}

/**
 * Searches with ripgrep through the shared process runner (sanitised environment, time limit,
 * capped output, the whole process tree ended on timeout). It runs in the searched directory,
 * approved again as a working directory; ripgrep is given the absolute path, so for a single
 * file its directory is only where the process starts.
 */
export async function searchWithRipgrep(rg: string, query: GrepQuery, files: FileSandbox): Promise<GrepOutcome> {
  const cwd = query.rootIsDirectory ? await resolveWorkingDirectory(files.services, files.tool, query.root) : dirname(query.root);
  const run = await runProcess(rg, ripgrepArguments(query), {
    cwd,
    timeoutMs: query.timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    signal: query.signal,
  });
  if (run.timedOut)
    throw new TimeoutError(`grep: ripgrep did not finish within ${query.timeoutMs / 1000} s; narrow the path or include`, {
      timeoutMs: query.timeoutMs,
    });
  if (run.cancelled) query.signal?.throwIfAborted();
  if (run.exitCode === 2 && /regex parse error|error parsing|unrecognized|look-around|backreferences/i.test(run.stderr))
    throw new RipgrepPatternError(run.stderr);
  return { files: parseRipgrepOutput(run.stdout, query.maxLineLength), truncated: run.truncated };
}
