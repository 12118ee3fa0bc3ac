import { mkdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { atomicWriteVerified, withFileLocks } from '@nexus/core';

type JsonRecord = Record<string, unknown>;

/** The object stored in `file`; `{}` when it is missing or not a JSON object (a damaged file is replaced on the next update). */
export async function readJsonState(file: string): Promise<JsonRecord> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : {};
  } catch {
    return {};
  }
}

/**
 * Read-modify-writes the object in `file` under core's edit lock, with an atomic write, so
 * concurrent updates — from this process or others — all land (no count lost) and a crash leaves
 * the old or the new content. Creates the directory.
 */
export async function updateJsonState(file: string, update: (state: JsonRecord) => JsonRecord): Promise<void> {
  const directory = dirname(file);
  await mkdir(directory, { recursive: true });
  const real = join(await realpath(directory), basename(file));
  await withFileLocks([real], async () => {
    const next = update(await readJsonState(real));
    await atomicWriteVerified(real, Buffer.from(`${JSON.stringify(next, null, 2)}\n`));
  });
}
