import { closeSync, fstatSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import {
  InvalidParametersError,
  NotFoundError,
  openVerified,
  openVerifiedDirectory,
  openVerifiedSync,
  type VerifiedDirectory,
} from '@nexus/core';
import { ChunkReader } from './chunk-reader.js';
import { errnoCode } from './errno-code.js';
import type { PathAuthorizer } from './path-authorizer.js';

/** A regular file opened for reading through the sandbox. */
export interface OpenedFile {
  /** Real path the sandbox approved. */
  path: string;
  /** The open file; close it when done. */
  handle: FileHandle;
  /** Its stats, taken through the open handle. */
  stats: Stats;
}

/** A failed open of a file as the LLM should hear of it (`path`: how it named the file). */
function fileOpenError(error: unknown, path: string): unknown {
  return errnoCode(error) === 'ENOENT' ? new NotFoundError(`No such file: ${path}`, { cause: error }) : error;
}

/** Refuses anything but a regular file, saying what to use instead. */
function assertRegularFile(stats: Stats, path: string, parameter: string): void {
  if (stats.isDirectory())
    throw new InvalidParametersError(
      `Expected \`${parameter}\` to be a file, but ${path} is a directory; use list_directory or glob to see what it holds.`,
      { parameter },
    );
  if (!stats.isFile())
    throw new InvalidParametersError(`Expected \`${parameter}\` to be a regular file, but ${path} is a device, socket or pipe.`, {
      parameter,
    });
}

/**
 * Opens what a file skill reads: every open goes through core's verified opens, which re-check the
 * opened file against the real path that was approved, so a path swapped for a symlink after the
 * check is refused.
 */
export class FileOpener {
  readonly #paths: PathAuthorizer;

  /** Opens what `paths` approves. */
  constructor(paths: PathAuthorizer) {
    this.#paths = paths;
  }

  /** Approves `path` for reading and opens it as a regular file; `parameter` names the argument in errors (default `path`). */
  async openFile(path: string, options: { parameter?: string } = {}): Promise<OpenedFile> {
    const { parameter = 'path' } = options;
    return this.openApproved(await this.#paths.authorize(path, { mustExist: true, parameter }), path, parameter);
  }

  /** Opens a regular file at a real path the sandbox already approved (`path`: how to name it in errors). */
  async openApproved(real: string, path: string = real, parameter = 'path'): Promise<OpenedFile> {
    let handle: FileHandle;
    try {
      handle = await openVerified(real);
    } catch (error) {
      throw fileOpenError(error, path);
    }
    try {
      // fstat of an open descriptor takes microseconds; a thread-pool round trip would cost more.
      const stats = fstatSync(handle.fd);
      assertRegularFile(stats, path, parameter);
      return { path: real, handle, stats };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * {@link openFile} for the skills that show a file's text: a {@link ChunkReader}, opened,
   * checked and closed without libuv's thread pool, with the first 64 KiB already read, so a
   * small file costs no thread-pool round trip at all. Close it when done.
   */
  async openReader(path: string): Promise<ChunkReader> {
    const real = await this.#paths.authorize(path, { mustExist: true });
    let fd: number;
    try {
      fd = openVerifiedSync(real);
    } catch (error) {
      throw fileOpenError(error, path);
    }
    try {
      const stats = fstatSync(fd);
      assertRegularFile(stats, path, 'path');
      return new ChunkReader(fd, real, stats);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Opens an approved directory whose entries are pinned to the open handle. */
  async openDirectory(real: string): Promise<VerifiedDirectory> {
    try {
      return await openVerifiedDirectory(real);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') throw new NotFoundError(`No such directory: ${await this.#paths.display(real)}`, { cause: error });
      if (code === 'ENOTDIR')
        throw new InvalidParametersError(`\`path\` ${await this.#paths.display(real)} is not a directory.`, { parameter: 'path' });
      throw error;
    }
  }
}
