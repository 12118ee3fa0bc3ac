import { Worker } from 'node:worker_threads';
import { CancelledError, SkillExecutionError, TimeoutError } from '@nexus/core';

/** What a task posts: progress zero or more times, then its result or an error. */
export type TaskMessage = { type: 'progress'; value: unknown } | { type: 'done'; value: unknown } | { type: 'error'; message: string };

/**
 * A self-contained task (see {@link runWorkerTask}): it gets its data and a function to post
 * {@link TaskMessage}s with.
 */
export type Task<Data> = (data: Data, post: (message: TaskMessage) => void) => void;

/** Options of {@link runWorkerTask}. */
export interface WorkerTaskOptions<Progress> {
  /** Hard limit: the worker is terminated when it runs longer, in ms. */
  timeoutMs: number;
  /** What the timeout error says, e.g. `the pattern took too long`. */
  timeoutMessage: string;
  signal?: AbortSignal | undefined;
  /** Receives the worker's `{ type: 'progress', value }` messages. */
  onProgress?(value: Progress): void;
  /** Objects moved, not copied, to the worker. */
  transferList?: readonly ArrayBuffer[];
}

/**
 * Runs `main` in a worker thread so that work which may never finish — a regular expression
 * with catastrophic backtracking — cannot block the process: past `timeoutMs` (or when `signal`
 * aborts) the thread is terminated, which stops even a regex in mid-match.
 *
 * `main` must be self-contained: it is sent as source text, so it may use only globals (Node
 * built-ins through `process.getBuiltinModule`: a bundler rewrites `require`). It gets
 * `workerData` and posts `{ type: 'progress', value }` zero or more times, then
 * `{ type: 'done', value }` or `{ type: 'error', message }`.
 */
export function runWorkerTask<Result, Progress = never, Data = unknown>(
  main: Task<Data>,
  workerData: Data,
  options: WorkerTaskOptions<Progress>,
): Promise<Result> {
  const { timeoutMs, timeoutMessage, signal, onProgress, transferList = [] } = options;
  if (signal?.aborted) return Promise.reject(new CancelledError());
  // A bundler keeping function names may wrap nested functions in `__name(…)`; give it a no-op.
  const source = [
    'var __name = (target) => target;',
    "const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');",
    `(${main.toString()})(workerData, (message) => parentPort.postMessage(message));`,
  ].join('\n');
  const worker = new Worker(source, { eval: true, workerData, transferList: [...transferList] });
  return new Promise<Result>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new TimeoutError(`${timeoutMessage} (stopped after ${timeoutMs / 1000} s)`, { timeoutMs }))),
      timeoutMs,
    );
    const onAbort = () => finish(() => reject(new CancelledError()));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { type: string; value?: unknown; message?: string }) => {
      if (message.type === 'progress') onProgress?.(message.value as Progress);
      else if (message.type === 'done') finish(() => resolve(message.value as Result));
      else if (message.type === 'error') finish(() => reject(new SkillExecutionError('worker', message.message ?? 'unknown error')));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) => finish(() => reject(new SkillExecutionError('worker', `the worker thread exited early (code ${code})`))));
  });
}

/**
 * Runs a {@link Task} on the calling thread, synchronously: only for work known to end soon (a
 * linear-time search of little data), where a worker thread would cost more than the work.
 */
export function runTaskInThread<Result, Progress = never, Data = unknown>(
  main: Task<Data>,
  data: Data,
  onProgress?: (value: Progress) => void,
): Promise<Result> {
  return new Promise<Result>((resolve, reject) => {
    main(data, (message) => {
      if (message.type === 'progress') onProgress?.(message.value as Progress);
      else if (message.type === 'done') resolve(message.value as Result);
      else reject(new SkillExecutionError('worker', message.message));
    });
  });
}
