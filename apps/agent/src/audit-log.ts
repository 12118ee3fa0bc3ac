import { constants, createReadStream } from 'node:fs';
import { chmod, type FileHandle, mkdir, open, rename, unlink } from 'node:fs/promises';
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

/** Opens the log for appending, making its directory (0700) first only when it is missing. */
async function openLog(file: string): Promise<FileHandle> {
  try {
    return await open(file, APPEND, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    return open(file, APPEND, 0o600);
  }
}

/**
 * Appends audit records to the log as JSON lines, off the calls' path: the sink only queues a
 * record; the lines are written in batches once the event loop is free, under a lock shared with
 * other Nexus processes. The file is created 0600 and never rewritten — rotation renames it
 * (`audit.jsonl` → `audit.jsonl.1` → …) once the next line would take it past `maxBytes`.
 */
export class AuditLogWriter {
  readonly #settings: AuditSettings;
  readonly #isolation: Promise<string>;
  #pending: AuditRecord[] = [];
  #writing: Promise<void> = Promise.resolve();
  #scheduled = false;
  /** A write is chained and not yet started: it takes every record pending when it starts. */
  #queued = false;

  constructor(settings: AuditSettings, isolation: Promise<string>) {
    this.#settings = settings;
    this.#isolation = isolation;
  }

  /** The registry's `onAudit`: queues the record. */
  readonly sink: AuditSink = (record) => {
    this.#pending.push(record);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#enqueue());
  };

  /** Resolves once every record queued so far is written. */
  flush(): Promise<void> {
    if (this.#pending.length > 0) this.#enqueue();
    return this.#writing;
  }

  #enqueue(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0 || this.#queued) return;
    this.#queued = true;
    // Records of calls that end while a write is under way go in one write after it, so
    // back-to-back calls share the lock, open and close instead of paying them each.
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
    // A call's own isolation (its command's run) wins over the run's setting.
    const lines = records.map((record) => Buffer.from(`${JSON.stringify({ ...record, isolation: record.isolation ?? isolation })}\n`));
    const { file } = this.#settings;
    await withFileLocks([file], async () => {
      let handle = await openLog(file);
      try {
        const stats = await handle.stat();
        if ((stats.mode & 0o777) !== 0o600) await handle.chmod(0o600);
        let size = stats.size;
        for (const line of lines) {
          if (size > 0 && size + line.length > this.#settings.maxBytes) {
            await handle.close();
            await this.#rotate();
            handle = await openLog(file);
            size = 0;
          }
          await handle.write(line);
          size += line.length;
        }
      } finally {
        await handle.close();
      }
    });
  }

  async #rotate(): Promise<void> {
    const { file, keep } = this.#settings;
    const ignoreMissing = (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    };
    if (keep === 0) return unlink(file).catch(ignoreMissing);
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
