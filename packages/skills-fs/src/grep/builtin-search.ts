import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createGlobMatcher } from '../glob-matcher.js';
import { compilePattern, linearSource, re2jsModulePath } from '../regex-pattern.js';
import { SKIPPED_DIRECTORIES, walkFiles } from '../walk-files.js';
import { runTaskInThread, runWorkerTask, type TaskMessage } from '../worker-task.js';
import type { GrepFileResult, GrepLine, GrepOutcome, GrepQuery } from './grep-query.js';

interface SearchJob {
  files: string[];
  /** The pattern for RE2 with its flags inline (see linearSource); `undefined`: JavaScript's RegExp runs it. */
  linearSource: string | undefined;
  /** Where the worker loads re2js from. */
  re2jsModule: string;
  /** The pattern and flags for JavaScript's RegExp. */
  source: string;
  flags: string;
  /** Whether many lines may be tested at once before testing them one by one (false with look-arounds). */
  prefilter: boolean;
  /** The pattern has a `$`: RE2's multi-line `$` does not match before a CR, so CRLF text is tested line by line. */
  endAnchor: boolean;
  /** The pattern when it is a plain, case-sensitive string: chunks without it are skipped undecoded. */
  literal: string | undefined;
  context: number;
  maxMatches: number;
  maxLineLength: number;
  /** Longest line searched whole; of a longer one only this many bytes are searched. */
  maxLineBytes: number;
  /** Size of one read. */
  chunkBytes: number;
  /** Set to 1 by the main thread when it has enough matches. */
  stop: SharedArrayBuffer;
}

/** What the worker reports for a file with matches or with lines longer than `maxLineBytes`. */
interface FileReport {
  index: number;
  lines: GrepLine[];
  longLines: number[];
}

/**
 * A task (see runWorkerTask) that reads each file in chunks of whole lines and reports matching
 * lines with their context, one message per file. A chunk, then each block of lines, without any
 * match is skipped after one regex run. Binary files (a NUL byte in the first 8,000) are skipped.
 * A line longer than `maxLineBytes` is searched in its first `maxLineBytes` only, so memory stays
 * bounded whatever the file.
 */
function searchFiles(job: SearchJob, post: (message: TaskMessage) => void): void {
  const { openSync, readSync, closeSync } = process.getBuiltinModule('node:fs');
  const stop = new Int32Array(job.stop);
  let testLine: (line: string) => boolean;
  /** Tests many lines at once (`^` and `$` at each line). */
  let testLines: (lines: string) => boolean;
  if (job.linearSource !== undefined) {
    const { createRequire } = process.getBuiltinModule('node:module');
    const { RE2JS } = createRequire(job.re2jsModule)(job.re2jsModule) as typeof import('re2js');
    const line = RE2JS.compile(job.linearSource);
    const lines = RE2JS.compile(`(?m)${job.linearSource}`);
    testLine = (text) => line.test(text);
    testLines = (text) => lines.test(text);
  } else {
    const line = new RegExp(job.source, job.flags);
    const lines = new RegExp(job.source, `${job.flags}m`);
    testLine = (text) => line.test(text);
    testLines = (text) => lines.test(text);
  }
  const BLOCK_LINES = 64;
  const buffer = Buffer.allocUnsafe(job.chunkBytes);
  const literal = job.literal === undefined ? undefined : Buffer.from(job.literal, 'utf8');
  let total = 0;
  const cut = (text: string): string =>
    text.length <= job.maxLineLength ? text : `${text.slice(0, job.maxLineLength)}… [line cut at ${job.maxLineLength} characters]`;
  const lastLines = (text: string): string[] => {
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    return lines.slice(-job.context);
  };

  for (let index = 0; index < job.files.length && total < job.maxMatches; index++) {
    if (Atomics.load(stop, 0) === 1) break;
    let fd: number;
    try {
      fd = openSync(job.files[index] as string, 'r');
    } catch {
      continue;
    }
    const lines: GrepLine[] = [];
    const longLines: number[] = [];
    let matches = 0;
    let firstLine = 1;
    let pendingAfter = 0;
    let lastEmitted = 0;
    let previousTail: string[] = [];

    /** Searches `data`, whole lines from line `firstLine` on (the last one may lack its LF). */
    const searchLines = (data: Buffer): void => {
      const testable = job.prefilter && !(job.endAnchor && data.includes(13));
      const skip = (text?: string) => {
        for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) firstLine++;
        if (data.length > 0 && data[data.length - 1] !== 10) firstLine++;
        if (job.context > 0) previousTail = lastLines(text?.slice(-4096) ?? data.toString('utf8', Math.max(0, data.length - 4096)));
      };
      // A literal is looked for in the bytes; RE2 reads decoded text faster than bytes.
      if (pendingAfter === 0 && testable && literal && data.indexOf(literal) === -1) {
        skip();
        return;
      }
      const text = data.toString('utf8');
      if (pendingAfter === 0 && testable && !literal && !testLines(text)) {
        skip(text);
        return;
      }
      const chunkLines = text.split('\n');
      if (text.endsWith('\n')) chunkLines.pop();
      /** Lines before this one are in a block known to match somewhere. */
      let testedUntil = 0;
      for (let offset = 0, start = 0; offset < chunkLines.length; offset++) {
        const raw = chunkLines[offset] as string;
        if (testable && pendingAfter === 0 && offset >= testedUntil) {
          const end = Math.min(chunkLines.length, offset + BLOCK_LINES);
          let blockEnd = start;
          for (let line = offset; line < end; line++) blockEnd += (chunkLines[line] as string).length + 1;
          if (!testLines(text.slice(start, blockEnd - 1))) {
            offset = end - 1;
            start = blockEnd;
            continue;
          }
          testedUntil = end;
        }
        start += raw.length + 1;
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        const number = firstLine + offset;
        if (matches < job.maxMatches && testLine(line)) {
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
      if (job.context > 0) previousTail = chunkLines.slice(-job.context);
    };

    try {
      let carry: Buffer | undefined;
      /** In the rest of a line longer than maxLineBytes, which is not searched. */
      let skipping = false;
      for (let position = 0; ; ) {
        const read = readSync(fd, buffer, 0, buffer.length, position);
        if (position === 0 && buffer.subarray(0, Math.min(read, 8000)).includes(0)) break;
        position += read;
        let data = buffer.subarray(0, read);
        if (skipping) {
          const newline = data.indexOf(10);
          if (newline === -1 && read > 0) continue;
          data = data.subarray(newline + 1);
          skipping = false;
        }
        if (carry) data = Buffer.concat([carry, data]);
        carry = undefined;
        if (read === 0) {
          if (data.length > 0) searchLines(data);
          break;
        }
        const end = data.lastIndexOf(10) + 1;
        if (end > 0) {
          if (end < data.length) carry = Buffer.from(data.subarray(end));
          searchLines(data.subarray(0, end));
        } else if (data.length < job.maxLineBytes) carry = Buffer.from(data);
        else {
          longLines.push(firstLine);
          searchLines(data.subarray(0, job.maxLineBytes));
          skipping = true;
        }
        if (matches >= job.maxMatches) break;
      }
    } finally {
      closeSync(fd);
    }
    if (matches > 0 || longLines.length > 0) {
      total += matches;
      post({ type: 'progress', value: { index, lines, longLines } satisfies FileReport });
    }
  }
  post({ type: 'done', value: null });
}

/** Longest line the built-in engine searches whole: of a longer one, only the start is searched. */
export const MAX_SEARCHED_LINE_BYTES = 8 * 1024 * 1024;

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
 * tell whether any were left out.
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
  const longLines: GrepOutcome['longLines'] = [];
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
    maxLineBytes: MAX_SEARCHED_LINE_BYTES,
    chunkBytes: 8 * 1024 * 1024,
    stop,
  };
  const onProgress = (start: number) => (report: FileReport) => {
    const file = files[start + report.index] as string;
    queue = queue.then(async () => {
      if (accepted >= wanted || !(await accept(file))) return;
      for (const line of report.longLines) longLines.push({ file, line });
      if (report.lines.length === 0) return;
      results.push({ file, lines: report.lines });
      accepted += report.lines.filter((line) => line.match).length;
      if (accepted >= wanted) Atomics.store(new Int32Array(stop), 0, 1);
    });
  };
  const done = async (): Promise<GrepOutcome> => {
    await queue;
    return { files: results, truncated: false, longLines };
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
