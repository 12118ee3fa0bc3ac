import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's code, run as a CommonJS script: it loads the tokenizer (o200k, gpt-tokenizer) and
 * answers each batch of texts with their counts. Inline rather than a file of its own, so it runs
 * the same from the sources and from the build.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { countTokens } = require(workerData.tokenizer);
parentPort.on('message', ({ id, texts }) => parentPort.postMessage({ id, counts: texts.map((text) => countTokens(text)) }));
`;

interface Pending {
  resolve(counts: number[]): void;
  reject(error: Error): void;
}

/**
 * Counts tokens on a worker thread of its own, started on first use: loading the tokenizer (~0.3 s
 * and ~70 MB, over a second on a busy machine) and counting long texts never stall the event loop
 * that answers other requests. The thread holds the process open only while counts are awaited;
 * if it fails, the counts awaited are refused and the next ones start a new thread.
 */
class TokenizerThread {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;

  count(texts: readonly string[]): Promise<number[]> {
    if (texts.length === 0) return Promise.resolve([]);
    const worker = this.#start();
    const id = this.#nextId++;
    const counted = new Promise<number[]>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    if (this.#pending.size === 1) worker.ref();
    worker.postMessage({ id, texts });
    return counted;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const tokenizer = createRequire(import.meta.url).resolve('gpt-tokenizer');
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { tokenizer } });
    worker.unref();
    worker.on('message', ({ id, counts }: { id: number; counts: number[] }) => {
      this.#pending.get(id)?.resolve(counts);
      this.#pending.delete(id);
      if (this.#pending.size === 0) worker.unref();
    });
    const fail = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The tokenizer's thread ended (exit code ${code}).`)));
    this.#worker = worker;
    return worker;
  }
}

/** The process's one tokenizer thread. */
export const tokenizerThread = new TokenizerThread();
