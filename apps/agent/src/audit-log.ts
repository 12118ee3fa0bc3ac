import {
  closeSync,
  constants,
  createReadStream,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
import { chmod, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { withFileLocks } from '@nexus/core';
import type { AuditRecord, AuditSink } from '@nexus/registry';

/** Where the audit log is and how it is kept. */
export interface AuditSettings {
  /** Whether calls are recorded (default `true`). */
  enabled: boolean;
  /** The log file: `$XDG_STATE_HOME/nexus/audit.jsonl`. */
  file: string;
  /** Size past which the file is rotated (default 10 MiB). */
  maxBytes: number;
  /** Rotated files kept: `audit.jsonl.1` (newest) … `audit.jsonl.<keep>` (default 5). */
  keep: number;
}

/** The audit log's size limit when the config sets none. */
export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;
/** How many rotated files are kept when the config sets no number. */
export const DEFAULT_AUDIT_KEEP = 5;
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** The files of the log, oldest first: the rotated ones, then the current one. */
export function auditFiles(settings: AuditSettings): string[] {
  return [...Array.from({ length: settings.keep }, (_, index) => `${settings.file}.${settings.keep - index}`), settings.file];
}

/** Opens the log for appending (a file descriptor), making its directory (0700) first only when it is missing. */
function openLog(file: string): number {
  try {
    return openSync(file, APPEND, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    return openSync(file, APPEND, 0o600);
  }
}

/** The log as this process holds it open: the file descriptor and the inode it was opened on. */
interface OpenLog {
  readonly fd: number;
  readonly ino: number;
}

/**
 * Appends audit records to the log as JSON lines, off the calls' path: the sink only queues a
 * record; the records queued in one turn of the event loop are written together at its end (at
 * once on {@link flush}), while the process is still busy: a write after it has gone idle costs
 * several times more. The file is created 0600,
 * kept open, and never rewritten. Each batch is one `O_APPEND` write, which the kernel never
 * interleaves with another process's, so appends take no lock; rotation does — it renames the
 * file (`audit.jsonl` → `audit.jsonl.1` → …) under a lock shared with other Nexus processes once
 * the next batch would take it past `maxBytes`, and a writer holding the old file opens the new one
 * at its next batch (a batch written in between lands in `audit.jsonl.1`, not lost). The usual
 * batch is a stat and a write of a few hundred bytes, made synchronously: cheaper than handing
 * them to the thread pool, on the path of every call a busy server answers.
 */
export class AuditLogWriter {
  readonly #settings: AuditSettings;
  readonly #isolation: Promise<string>;
  #pending: AuditRecord[] = [];
  #writing: Promise<void> = Promise.resolve();
  /** The end of the turn that writes the pending records, while some wait. */
  #scheduled: NodeJS.Immediate | undefined;
  /** A write is chained and not yet started: it takes every record pending when it starts. */
  #queued = false;
  #log: OpenLog | undefined;

  constructor(settings: AuditSettings, isolation: Promise<string>) {
    this.#settings = settings;
    this.#isolation = isolation;
  }

  /** The registry's `onAudit`: queues the record. */
  readonly sink: AuditSink = (record) => {
    this.#pending.push(record);
    this.#scheduled ??= setImmediate(() => this.#enqueue());
  };

  /** Resolves once every record queued so far is written. */
  flush(): Promise<void> {
    if (this.#pending.length > 0) this.#enqueue();
    return this.#writing;
  }

  #enqueue(): void {
    clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#pending.length === 0 || this.#queued) return;
    this.#queued = true;
    // Records of calls that end while a write is under way go in one write after it.
    this.#writing = this.#writing
      .then(() => {
        this.#queued = false;
        const records = this.#pending;
        this.#pending = [];
        return this.#write(records);
      })
      // A record that cannot be written is lost, not a reason to fail the calls that follow.
      .catch(() => {});
  }

  async #write(records: readonly AuditRecord[]): Promise<void> {
    const isolation = await this.#isolation;
    // A call's own isolation (its command's run) wins over the run's setting, which goes last, as a spread would put it.
    const setting = `,"isolation":${JSON.stringify(isolation)}}\n`;
    const batch = Buffer.from(
      records
        .map((record) => {
          const line = JSON.stringify(record);
          return record.isolation === undefined ? line.slice(0, -1) + setting : `${line}\n`;
        })
        .join(''),
    );
    const { fd, size } = this.#current();
    if (size > 0 && size + batch.length > this.#settings.maxBytes) return this.#writeRotating(batch);
    writeSync(fd, batch);
  }

  /**
   * The log's descriptor and its size at its path: opened again when the path holds another
   * file than the one open (rotated by another process, or removed), and narrowed back to 0600
   * when it was widened.
   */
  #current(): { fd: number; size: number } {
    const { file } = this.#settings;
    const now = lstatSync(file, { throwIfNoEntry: false });
    let log = this.#log;
    if (!now || now.ino !== log?.ino) {
      if (log) closeSync(log.fd);
      this.#log = undefined;
      const fd = openLog(file);
      log = this.#log = { fd, ino: fstatSync(fd).ino };
    }
    const info = now && now.ino === log.ino ? now : fstatSync(log.fd);
    if ((info.mode & 0o777) !== 0o600) fchmodSync(log.fd, 0o600);
    return { fd: log.fd, size: info.size };
  }

  /** Writes `batch` line by line under the rotation lock, rotating whenever the next line would not fit. */
  async #writeRotating(batch: Buffer): Promise<void> {
    const lines = batch
      .toString()
      .split(/(?<=\n)/)
      .map((line) => Buffer.from(line));
    await withFileLocks([this.#settings.file], async () => {
      // Another process may have rotated while this one waited: the size is the file's at the path now.
      let { fd, size } = this.#current();
      for (const line of lines) {
        if (size > 0 && size + line.length > this.#settings.maxBytes) {
          await this.#rotate(fd);
          ({ fd, size } = this.#current());
        }
        writeSync(fd, line);
        size += line.length;
      }
    });
  }

  /** Rotates the log open as `fd`. */
  async #rotate(fd: number): Promise<void> {
    const { file, keep } = this.#settings;
    // Emptied in place, not removed, when none is kept: other processes' descriptors stay on the log, so their next lines are not lost.
    if (keep === 0) return ftruncateSync(fd, 0);
    const ignoreMissing = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    };
    for (let index = keep - 1; index >= 1; index--) await rename(`${file}.${index}`, `${file}.${index + 1}`).catch(ignoreMissing);
    await rename(file, `${file}.1`);
    await chmod(`${file}.1`, 0o600);
  }
}

const writers = new Map<string, AuditLogWriter>();

/** The one writer of a log file in this process (every registry and agent of a run shares it). */
export function auditLogWriter(settings: AuditSettings, isolation: () => Promise<string>): AuditLogWriter {
  let writer = writers.get(settings.file);
  if (!writer) {
    writer = new AuditLogWriter(settings, isolation());
    writers.set(settings.file, writer);
  }
  return writer;
}

/** Waits until every audit record of this process so far is written. */
export async function flushAuditLogs(): Promise<void> {
  // Registries hand over the records of ended calls on the event loop's next turn.
  await new Promise((handedOver) => setImmediate(handedOver));
  await Promise.all([...writers.values()].map((writer) => writer.flush()));
}

/** Reads the log's records, oldest first, across the rotated files; lines that are not JSON objects are skipped. */
export async function* readAuditLog(settings: AuditSettings): AsyncGenerator<AuditRecord> {
  for (const file of auditFiles(settings)) {
    const stream = createReadStream(file, { encoding: 'utf8' });
    try {
      for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
        try {
          const record: unknown = JSON.parse(line);
          if (record !== null && typeof record === 'object' && !Array.isArray(record)) yield record as AuditRecord;
        } catch {}
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    } finally {
      stream.destroy();
    }
  }
}
