import { InvalidParametersError, SkillExecutionError } from '@nexus/core';
import { unzipSync } from 'fflate';

/** One file of a zip archive. */
export interface ZipEntry {
  name: string;
  /** Uncompressed size as the archive declares it. */
  size: number;
}

function open(bytes: Uint8Array, keep: (entry: ZipEntry) => boolean): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter: (file) => keep({ name: file.name, size: file.originalSize }) });
  } catch {
    throw new SkillExecutionError('gitlab_artifact', 'the artifacts are not a valid zip archive');
  }
}

/** The files of a zip archive (directories left out), without decompressing anything. */
export function listZipEntries(bytes: Uint8Array): ZipEntry[] {
  const entries: ZipEntry[] = [];
  open(bytes, (entry) => {
    if (!entry.name.endsWith('/')) entries.push(entry);
    return false;
  });
  return entries;
}

/**
 * The relative path an archive entry may be written to, or an error: absolute paths, drive
 * letters, `..` parts and backslash tricks are refused (zip-slip).
 */
function safeEntryPath(name: string): string {
  const normalised = name.replaceAll('\\', '/');
  const parts = normalised.split('/').filter((part) => part !== '' && part !== '.');
  if (
    normalised.startsWith('/') ||
    /^[A-Za-z]:/.test(normalised) ||
    parts.includes('..') ||
    normalised.includes('\0') ||
    parts.length === 0
  ) {
    throw new InvalidParametersError(
      `The archive entry ${JSON.stringify(name)} would land outside the target directory; nothing was extracted.`,
      { parameter: 'output_path' },
    );
  }
  return parts.join('/');
}

/**
 * The files of an archive, decompressed, keyed by their safe relative path. Every name is checked
 * before anything is decompressed, and the declared total must stay within `maxBytes`.
 */
export function readZip(bytes: Uint8Array, maxBytes: number): Map<string, Uint8Array> {
  const entries = listZipEntries(bytes);
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total > maxBytes)
    throw new SkillExecutionError('gitlab_artifact', `the archive unpacks to ${total} bytes, more than the limit of ${maxBytes}`);
  const paths = new Map(entries.map((entry) => [entry.name, safeEntryPath(entry.name)]));
  const files = open(bytes, (entry) => !entry.name.endsWith('/'));
  const result = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) {
    const path = paths.get(name);
    if (path === undefined) continue;
    if (data.length > maxBytes) throw new SkillExecutionError('gitlab_artifact', 'an archive entry is larger than its declared size');
    result.set(path, data);
  }
  return result;
}
