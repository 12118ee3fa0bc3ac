import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createGlobMatcher } from '../glob-matcher.js';
import { compilePattern, linearSource, re2jsModulePath } from '../regex-pattern.js';
import { SKIPPED_DIRECTORIES, walkFiles } from '../walk-files.js';
import { runTaskInThread, runWorkerTask } from '../worker-task.js';
import type { GrepFileResult, GrepOutcome, GrepQuery } from './grep-query.js';
import { type FileReport, type SearchJob, searchFiles, WINDOW_CHARS, WINDOW_OVERLAP_CHARS } from './search-files-task.js';

/** Longest line the built-in engine searches as one string: a longer one is searched in overlapping windows. */
const MAX_WHOLE_LINE_BYTES = 8 * 1024 * 1024;

/** Files needed before a second worker thread pays for its start-up. */
const PARALLEL_THRESHOLD = 200;
/**
 * Most bytes a linear-time search reads on the calling thread, where starting a worker thread
 * would take longer than the search (RE2 reads at least ~50 MB/s, so it blocks for ~20 ms at most).
 */
const IN_THREAD_MAX_BYTES = 1024 * 1024;
const MAX_WORKERS = 2;
const LOOKAROUND = /\(\?<?[=!]/;
const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

/**
 * Searches with the built-in engine: the main thread walks the tree (symlinks not followed,
 * `.git` and `node_modules` skipped) and worker threads match. Patterns RE2 can run are matched
 * in linear time, under the search's time limit (on the calling thread when there is little to
 * read); the others (look-arounds, back-references) by
 * JavaScript's backtracking RegExp under the shorter regex time limit, so a catastrophic pattern
 * is stopped without blocking the process. `accept` filters each file with matches through the
 * sandbox before it counts. Looks for one match more than `maxMatches`, so that the caller can
 * tell whether any were left out. Lines of any length are searched, in bounded memory (see
 * searchFiles).
 */
export async function searchBuiltin(query: GrepQuery, accept: (file: string) => Promise<boolean>): Promise<GrepOutcome> {
  const regex = compilePattern(query.pattern, query.ignoreCase ? 'i' : '');
  const linear = linearSource(query.pattern, regex.flags);
  let files: string[];
  if (query.rootIsDirectory) {
    const include = query.include === undefined ? undefined : createGlobMatcher(query.include);
    const walk = await walkFiles({
      root: query.root,
      recursive: query.recursive,
      signal: query.signal,
      enterDirectory: (_path, name) => !SKIPPED_DIRECTORIES.includes(name),
    });
    files = walk.files.filter((file) => !include || include(file)).map((file) => join(query.root, file));
  } else files = [query.root];

  const stop = new SharedArrayBuffer(4);
  const wanted = query.maxMatches + 1;
  const results: GrepFileResult[] = [];
  let accepted = 0;
  let queue = Promise.resolve();
  const job: SearchJob = {
    files,
    linearSource: linear,
    re2jsModule: re2jsModulePath(),
    source: regex.source,
    flags: regex.flags,
    prefilter: !LOOKAROUND.test(query.pattern),
    endAnchor: linear !== undefined && query.pattern.includes('$'),
    literal: query.ignoreCase || REGEX_SYNTAX.test(query.pattern) ? undefined : query.pattern,
    context: query.context,
    maxMatches: wanted,
    maxLineLength: query.maxLineLength,
    maxLineBytes: MAX_WHOLE_LINE_BYTES,
    windowChars: WINDOW_CHARS,
    windowOverlap: WINDOW_OVERLAP_CHARS,
    chunkBytes: 8 * 1024 * 1024,
    stop,
  };
  const onProgress = (start: number) => (report: FileReport) => {
    const file = files[start + report.index] as string;
    queue = queue.then(async () => {
      if (accepted >= wanted || !(await accept(file))) return;
      results.push({ file, lines: report.lines });
      accepted += report.lines.filter((line) => line.match).length;
      if (accepted >= wanted) Atomics.store(new Int32Array(stop), 0, 1);
    });
  };
  const done = async (): Promise<GrepOutcome> => {
    await queue;
    return { files: results, truncated: false };
  };
  if (linear !== undefined && files.length < PARALLEL_THRESHOLD && (await totalSize(files)) <= IN_THREAD_MAX_BYTES) {
    query.signal?.throwIfAborted();
    await runTaskInThread<null, FileReport, SearchJob>(searchFiles, { ...job, chunkBytes: IN_THREAD_MAX_BYTES }, onProgress(0));
    return done();
  }
  const timeoutMessage =
    linear === undefined
      ? `grep: the search for ${JSON.stringify(query.pattern)} took too long; look-arounds and back-references run on a backtracking engine: simplify the pattern (nested quantifiers like (a+)+ backtrack exponentially) or narrow the path`
      : `grep: the search for ${JSON.stringify(query.pattern)} did not finish in time; narrow the path or include`;
  // Two worker threads (on two cores) share the files when there are enough to be worth it;
  // each takes a contiguous half, and the results are sorted afterwards.
  const workers = files.length >= PARALLEL_THRESHOLD ? Math.min(MAX_WORKERS, availableParallelism()) : 1;
  const share = Math.ceil(files.length / workers);
  const searches = Array.from({ length: workers }, (_, worker) => {
    const start = worker * share;
    return runWorkerTask<null, FileReport, SearchJob>(
      searchFiles,
      { ...job, files: files.slice(start, start + share) },
      {
        timeoutMs: linear === undefined ? query.regexTimeoutMs : query.timeoutMs,
        timeoutMessage,
        signal: query.signal,
        onProgress: onProgress(start),
      },
    );
  });
  try {
    await Promise.all(searches);
  } catch (error) {
    Atomics.store(new Int32Array(stop), 0, 1);
    await Promise.allSettled(searches);
    throw error;
  }
  return done();
}

/** The total size of `files` in bytes (files that cannot be read count as empty). */
async function totalSize(files: readonly string[]): Promise<number> {
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file).then(
        ({ size }) => size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
