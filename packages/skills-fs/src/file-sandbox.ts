import { closeSync, fstatSync, lstatSync, realpathSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import {
  type AuthorizePathOptions,
  authorizePath,
  defineSkill,
  InvalidParametersError,
  isWithin,
  NexusError,
  NotFoundError,
  normalizePath,
  openVerified,
  openVerifiedDirectory,
  openVerifiedSync,
  PathSecurityError,
  resolveRealPath,
  type ServiceContainer,
  type SkillDefinition,
  type SkillHandler,
  type SkillSpec,
  type VerifiedDirectory,
} from '@nexus/core';
import { ChunkReader } from './chunk-reader.js';
import { type ResolvedFileSkillOptions, resolveFileSkillOptions } from './file-skill-options.js';
import { fileVersion } from './read-tracker.js';

/**
 * Thrown when a write would overwrite a file the agent has not read, or that changed since: a
 * recoverable `forbidden` result that says to read the file first, with `{ path, reason }` as data.
 */
export class StaleFileError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/skills-fs/StaleFileError');
  static override readonly code = 'STALE_FILE';
  static override readonly kind = 'forbidden';
  readonly path: string;
  readonly reason: 'unread' | 'changed';
  constructor(path: string, reason: 'unread' | 'changed') {
    const why =
      reason === 'unread'
        ? 'it exists and has not been read in this session; read it first (read_file), then retry'
        : 'it changed on disk since it was last read; read it again (read_file), then retry';
    super(`Refusing to overwrite ${path}: ${why}.`, { recoverable: true, data: { path, reason } });
    this.path = path;
    this.reason = reason;
  }
}

/** A regular file opened for reading through the sandbox. */
export interface OpenedFile {
  /** Real path the sandbox approved. */
  path: string;
  handle: FileHandle;
  stats: Stats;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
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
 * The one way the file skills touch the filesystem: every path goes through core's
 * `authorizePath` for the skill's tool name (per-tool roots, blocked paths, symlinks, hard
 * links, confirmation of writes outside the working directory), and every open is re-checked
 * against what was approved ({@link openVerified}), so a path swapped after the check is refused.
 * It also carries the skill's settings and the stale-write protection of the `readTracker` service.
 */
export class FileSandbox {
  readonly services: ServiceContainer;
  readonly tool: string;
  #cwd: Promise<string> | undefined;

  constructor(services: ServiceContainer, tool: string) {
    this.services = services;
    this.tool = tool;
  }

  /** The family's settings (the `fileSkillOptions` service with defaults), read at each use. */
  get options(): ResolvedFileSkillOptions {
    return resolveFileSkillOptions(this.services);
  }

  /** Approves `path` for this tool and returns its real path (throws `forbidden` / `not_found`). */
  authorize(path: string, options: AuthorizePathOptions = {}): Promise<string> {
    if (path === '') throw new InvalidParametersError('Expected `path` to be a non-empty path, got "".', { parameter: 'path' });
    return authorizePath(this.services, this.tool, path, options);
  }

  /** Whether a listing or search result must be filtered through {@link isReadable} at all. */
  get hasBlockedPaths(): boolean {
    return this.services.getBlockedPaths().length > 0;
  }

  /** Whether this tool may read the real path `path`; used to filter what a walk or ripgrep found. */
  async isReadable(path: string): Promise<boolean> {
    try {
      await this.authorize(path);
      return true;
    } catch (error) {
      if (PathSecurityError.isInstance(error)) return false;
      throw error;
    }
  }

  /**
   * {@link isReadable} for a file a search found by walking a directory this tool was approved
   * to read, without following symlinks. The common case is settled with two cheap system calls:
   * when no blocked paths are configured and the file is, right now, a regular file with a single
   * link whose real path is the path itself, `authorizePath` could only approve it. Everything
   * else (blocked paths, hard links, symlinks anywhere in the path) goes through the full check.
   */
  async isFoundFileReadable(path: string): Promise<boolean> {
    if (!this.hasBlockedPaths) {
      try {
        const stats = lstatSync(path);
        if (stats.isFile() && stats.nlink === 1 && realpathSync.native(path) === path) return true;
      } catch {
        // vanished or unreadable: let the full check decide
      }
    }
    return this.isReadable(path);
  }

  /** How to show a real path to the LLM: relative to the working directory when inside it. */
  async display(path: string): Promise<string> {
    this.#cwd ??= resolveRealPath(normalizePath(this.services.getCwd()));
    const cwd = await this.#cwd;
    if (path === cwd) return '.';
    return isWithin(path, cwd) ? relative(cwd, path) : path;
  }

  /**
   * Opens an existing regular file for reading (`access` says which roots apply); `parameter`
   * names the argument in errors (default `path`).
   */
  async openFile(path: string, options: { access?: AuthorizePathOptions['access']; parameter?: string } = {}): Promise<OpenedFile> {
    const { access = 'read', parameter = 'path' } = options;
    return this.openApproved(await this.authorize(path, { access, mustExist: true }), path, parameter);
  }

  /** Opens a regular file at a real path {@link authorize} already approved (`path`: how to name it in errors). */
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
    const real = await this.authorize(path, { mustExist: true });
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
      if (code === 'ENOENT') throw new NotFoundError(`No such directory: ${await this.display(real)}`, { cause: error });
      if (code === 'ENOTDIR')
        throw new InvalidParametersError(`\`path\` ${await this.display(real)} is not a directory.`, { parameter: 'path' });
      throw error;
    }
  }

  /**
   * Creates the approved directory `real` and any missing parents (`mkdir -p`), one component at
   * a time, each inside a verified handle of its parent, so no component can be redirected by a
   * symlink planted during the walk. Returns how many directories were created.
   */
  async makeDirectories(real: string): Promise<number> {
    const missing: string[] = [];
    let existing = real;
    for (;;) {
      try {
        const stats = await lstat(existing);
        if (stats.isSymbolicLink())
          throw new PathSecurityError({ path: await this.display(existing), reason: 'it became a symbolic link after it was checked' });
        if (!stats.isDirectory())
          throw new InvalidParametersError(`\`path\` ${await this.display(existing)} exists and is not a directory.`, {
            parameter: 'path',
          });
        break;
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw error;
        missing.unshift(basename(existing));
        existing = dirname(existing);
      }
    }
    let current = existing;
    for (const name of missing) {
      const parent = await this.openDirectory(current);
      try {
        await mkdir(parent.entry(name)).catch((error: unknown) => {
          if (errnoCode(error) !== 'EEXIST') throw error;
        });
      } finally {
        await parent.close();
      }
      current = join(current, name);
    }
    if (missing.length > 0) await (await this.openDirectory(real)).close();
    return missing.length;
  }

  /** Refuses (with a {@link StaleFileError}) to overwrite a file the agent has not read as it is now. */
  async assertFresh(real: string, stats: Stats): Promise<void> {
    const tracker = this.services.get('readTracker');
    if (!tracker) return;
    const state = tracker.check(real, fileVersion(stats));
    if (state !== 'current') throw new StaleFileError(await this.display(real), state);
  }

  /** Notes that the agent has seen (read or written) the file as it is at `stats`. */
  recordSeen(real: string, stats: Stats): void {
    this.services.get('readTracker')?.record(real, fileVersion(stats));
  }

  /** Tells the read tracker a path no longer holds what the agent saw. */
  forget(real: string): void {
    this.services.get('readTracker')?.forget(real);
  }
}

/** What {@link defineFileSkill} takes: a skill definition whose handler is built from a {@link FileSandbox}. */
export interface FileSkillDefinition<Args> extends Omit<SkillDefinition<Args>, 'create'> {
  create(files: FileSandbox): SkillHandler<Args>;
}

/**
 * Defines a file skill: like `defineSkill`, with the handler built from a {@link FileSandbox} for
 * the skill's own name (so per-tool roots apply).
 */
export function defineFileSkill<Args>(definition: FileSkillDefinition<Args>): SkillSpec {
  const { create, ...metadata } = definition;
  return defineSkill<Args>({
    ...metadata,
    create(services) {
      return create(new FileSandbox(services, definition.name));
    },
  });
}
