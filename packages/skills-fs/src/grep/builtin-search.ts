import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createGlobMatcher } from '../glob-matcher.js';
import { compilePattern } from '../regex-pattern.js';
import { SKIPPED_DIRECTORIES, walkFiles } from '../walk-files.js';
import { runWorkerTask } from '../worker-task.js';
import type { GrepFileResult, GrepLine, GrepOutcome, GrepQuery } from './grep-query.js';

interface SearchJob {
  files: string[];
  source: string;
  flags: string;
  /** Whether a whole chunk may be tested before splitting it into lines (false with look-arounds). */
  prefilter: boolean;
  /** The pattern when it is a plain, case-sensitive string: chunks without it are skipped undecoded. */
  literal: string | undefined;
  context: number;
  maxMatches: number;
  maxLineLength: number;
  /** Set to 1 by the main thread when it has enough matches. */
  stop: SharedArrayBuffer;
}

/**
 * Runs in a worker thread (see runWorkerTask): reads each file in chunks of whole lines, skips
 * chunks with no match at all with one regex run, and reports matching lines with their
 * context, one message per file. Binary files (a NUL byte in the first 8,000) are skipped.
 */
function searchInWorker(): void {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const { openSync, readSync, closeSync } = process.getBuiltinModule('node:fs');
  const job = workerData as SearchJob;
  const stop = new Int32Array(job.stop);
  const lineRegex = new RegExp(job.source, job.flags);
  const chunkRegex = new RegExp(job.source, `${job.flags}m`);
  const CHUNK = 8 * 1024 * 1024;
  const buffer = Buffer.allocUnsafe(CHUNK);
  const literal = job.literal === undefined ? undefined : Buffer.from(job.literal, 'utf8');
  let total = 0;
  const cut = (text: string): string =>
    text.length <= job.maxLineLength ? text : `${text.slice(0, job.maxLineLength)}… [line cut at ${job.maxLineLength} characters]`;

  for (let index = 0; index < job.files.length && total < job.maxMatches; index++) {
    if (Atomics.load(stop, 0) === 1) break;
    let fd: number;
    try {
      fd = openSync(job.files[index] as string, 'r');
    } catch {
      continue;
    }
    const lines: { line: number; text: string; match: boolean }[] = [];
    let matches = 0;
    let firstLine = 1;
    let carry = Buffer.alloc(0);
    let position = 0;
    let pendingAfter = 0;
    let lastEmitted = 0;
    let previousTail: string[] = [];
    try {
      for (;;) {
        const read = readSync(fd, buffer, 0, CHUNK, position);
        const data = read === 0 ? carry : carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
        if (position === 0 && data.subarray(0, 8000).includes(0)) break;
        position += read;
        if (data.length === 0) break;
        const end = read === 0 ? data.length : data.lastIndexOf(10) + 1;
        if (end === 0 && read !== 0) {
          carry = Buffer.from(data);
          continue;
        }
        carry = Buffer.from(data.subarray(end));
        if (pendingAfter === 0 && literal && data.subarray(0, end).indexOf(literal) === -1) {
          // A short read means the end of the file: nothing after this chunk needs line numbers.
          if (read < CHUNK) break;
          for (let at = data.indexOf(10); at !== -1 && at < end; at = data.indexOf(10, at + 1)) firstLine++;
          if (job.context > 0)
            previousTail = data
              .toString('utf8', Math.max(0, end - 4096), end)
              .split('\n')
              .slice(0, -1)
              .slice(-job.context);
          continue;
        }
        const text = data.toString('utf8', 0, end);
        const chunkLines = text.split('\n');
        if (text.endsWith('\n')) chunkLines.pop();
        if (pendingAfter === 0 && job.prefilter && !chunkRegex.test(text)) {
          firstLine += chunkLines.length;
          previousTail = job.context > 0 ? chunkLines.slice(-job.context) : [];
        } else {
          for (let offset = 0; offset < chunkLines.length; offset++) {
            const raw = chunkLines[offset] as string;
            const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
            const number = firstLine + offset;
            if (matches < job.maxMatches && lineRegex.test(line)) {
              const from = Math.max(number - job.context, lastEmitted + 1);
              for (let before = from; before < number; before++) {
                const relative = before - firstLine;
                const beforeText = relative >= 0 ? chunkLines[relative] : previousTail[previousTail.length + relative];
                if (beforeText !== undefined) lines.push({ line: before, text: cut(beforeText.replace(/\r$/, '')), match: false });
              }
              lines.push({ line: number, text: cut(line), match: true });
              lastEmitted = number;
              matches++;
              pendingAfter = job.context;
            } else if (pendingAfter > 0) {
              lines.push({ line: number, text: cut(line), match: false });
              lastEmitted = number;
              pendingAfter--;
            } else if (matches >= job.maxMatches) break;
          }
          firstLine += chunkLines.length;
          previousTail = job.context > 0 ? chunkLines.slice(-job.context) : [];
        }
        if (read === 0 || matches >= job.maxMatches) break;
      }
    } finally {
      closeSync(fd);
    }
    if (matches > 0) {
      total += matches;
      parentPort?.postMessage({ type: 'progress', value: { index, lines } });
    }
  }
  parentPort?.postMessage({ type: 'done', value: null });
}

/** Files needed before a second worker thread pays for its start-up. */
const PARALLEL_THRESHOLD = 200;
const MAX_WORKERS = 2;
const LOOKAROUND = /\(\?<?[=!]/;
const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

/**
 * Searches with the built-in engine: the main thread walks the tree (symlinks not followed,
 * `.git` and `node_modules` skipped), a worker thread matches, and the whole search runs under
 * a hard time limit, so a catastrophic pattern is stopped without blocking the process.
 * `accept` filters each file with matches through the sandbox before it counts.
 */
export async function searchBuiltin(query: GrepQuery, accept: (file: string) => Promise<boolean>): Promise<GrepOutcome> {
  const regex = compilePattern(query.pattern, query.ignoreCase ? 'i' : '');
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
  const results: GrepFileResult[] = [];
  let accepted = 0;
  let queue = Promise.resolve();
  const job: SearchJob = {
    files,
    source: regex.source,
    flags: regex.flags,
    prefilter: !LOOKAROUND.test(query.pattern),
    literal: query.ignoreCase || REGEX_SYNTAX.test(query.pattern) ? undefined : query.pattern,
    context: query.context,
    maxMatches: query.maxMatches,
    maxLineLength: query.maxLineLength,
    stop,
  };
  // Two worker threads (on two cores) share the files when there are enough to be worth it;
  // each takes a contiguous half, and the results are sorted afterwards.
  const workers = files.length >= PARALLEL_THRESHOLD ? Math.min(MAX_WORKERS, availableParallelism()) : 1;
  const share = Math.ceil(files.length / workers);
  const searches = Array.from({ length: workers }, (_, worker) => {
    const start = worker * share;
    return runWorkerTask<null, { index: number; lines: GrepLine[] }>(
      searchInWorker,
      { ...job, files: files.slice(start, start + share) },
      {
        timeoutMs: query.timeoutMs,
        timeoutMessage: `grep: the search for ${JSON.stringify(query.pattern)} took too long; simplify the pattern (nested quantifiers like (a+)+ backtrack exponentially) or narrow the path`,
        signal: query.signal,
        onProgress: ({ index, lines }) => {
          const file = files[start + index] as string;
          queue = queue.then(async () => {
            if (accepted >= query.maxMatches || !(await accept(file))) return;
            results.push({ file, lines });
            accepted += lines.filter((line) => line.match).length;
            if (accepted >= query.maxMatches) Atomics.store(new Int32Array(stop), 0, 1);
          });
        },
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
  await queue;
  return { files: results, truncated: accepted >= query.maxMatches };
}
