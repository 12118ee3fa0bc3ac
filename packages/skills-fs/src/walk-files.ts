import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories every walk skips unless the caller asks for them. */
export const SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  /** Real path of the directory to walk. */
  root: string;
  /** Descend into sub-directories (default `true`). */
  recursive?: boolean;
  /** Whether to enter a directory, by its path relative to `root` and its name. */
  enterDirectory?(relativePath: string, name: string): boolean | Promise<boolean>;
  /** Stop after seeing this many entries (a bound on huge trees). */
  maxEntries?: number;
  signal?: AbortSignal;
}

/** Files found by {@link walkFiles}. */
export interface WalkResult {
  /** Regular files, relative to the root, sorted. */
  files: string[];
  /** The walk stopped at `maxEntries`. */
  truncated: boolean;
  /** Directories that could not be read (no permission, vanished, or nested too deep for a path). */
  unreadable: number;
}

const UNREADABLE = new Set(['EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);

const CONCURRENT_READS = 8;

/**
 * Lists the regular files under `root`, reading up to eight directories at a time. Symlinks are
 * never followed nor listed (they may lead out of the sandbox), so every file found lies inside
 * `root`. The result is sorted, so output does not depend on timing.
 */
export async function walkFiles(options: WalkOptions): Promise<WalkResult> {
  const { root, recursive = true, enterDirectory, maxEntries = 1_000_000, signal } = options;
  const files: string[] = [];
  const pending: string[] = [''];
  let seen = 0;
  let truncated = false;
  let unreadable = 0;

  const visit = async (relativeDirectory: string): Promise<void> => {
    const entries = await readdir(relativeDirectory === '' ? root : join(root, relativeDirectory), { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (!UNREADABLE.has(error.code ?? '')) throw error;
        unreadable++;
        return [];
      },
    );
    for (const entry of entries) {
      if (++seen > maxEntries) {
        truncated = true;
        return;
      }
      const relativePath = relativeDirectory === '' ? entry.name : `${relativeDirectory}/${entry.name}`;
      if (entry.isFile()) files.push(relativePath);
      else if (entry.isDirectory() && recursive && (!enterDirectory || (await enterDirectory(relativePath, entry.name))))
        pending.push(relativePath);
    }
  };

  await new Promise<void>((resolve, reject) => {
    let active = 0;
    let failed = false;
    const pump = () => {
      if (failed) return;
      if (signal?.aborted) {
        failed = true;
        reject(signal.reason);
        return;
      }
      while (active < CONCURRENT_READS && pending.length > 0 && !truncated) {
        const next = pending.pop() as string;
        active++;
        visit(next).then(
          () => {
            active--;
            pump();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
      if (active === 0) resolve();
    };
    pump();
  });
  files.sort();
  return { files, truncated, unreadable };
}
