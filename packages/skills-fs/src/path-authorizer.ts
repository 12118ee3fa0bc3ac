import { lstatSync, realpathSync } from 'node:fs';
import {
  type AuthorizePathOptions,
  authorizePath,
  type ConfirmFunction,
  InvalidParametersError,
  isPrivateProcessEntry,
  isWithin,
  normalizePath,
  PathSecurityError,
  resolveRealPath,
  type ServiceContainer,
} from '@nexus/core';

/** Options of {@link PathAuthorizer.authorize}: core's, except who confirms (that is the call's). */
export interface PathApprovalOptions extends Omit<AuthorizePathOptions, 'confirm'> {
  /** The argument that holds the path, named in errors (default `path`). */
  parameter?: string;
}

/** The real working directory of each agent, resolved once (and again when its `cwd` changes). */
const realWorkingDirectories = new WeakMap<ServiceContainer, { cwd: string; real: Promise<string> }>();

function realWorkingDirectory(services: ServiceContainer): Promise<string> {
  const cwd = services.getCwd();
  let known = realWorkingDirectories.get(services);
  if (known?.cwd !== cwd) {
    known = { cwd, real: resolveRealPath(normalizePath(cwd)) };
    realWorkingDirectories.set(services, known);
  }
  return known.real;
}

/**
 * Approves paths for one call of one file skill: every path goes through core's `authorizePath`
 * for the skill's own tool name (per-tool roots, blocked paths, symlinks, hard links), and a write
 * outside the working directory, where the policy allows it once confirmed (`trusted`), asks the
 * call's own `confirm` (else the `confirm` service). Also says how a real path is shown to the LLM.
 */
export class PathAuthorizer {
  readonly #services: ServiceContainer;
  readonly #tool: string;
  readonly #confirm: ConfirmFunction | undefined;

  /** `tool`: the skill's name (its per-tool roots apply); `confirm`: who to ask during this call. */
  constructor(services: ServiceContainer, tool: string, confirm?: ConfirmFunction) {
    this.#services = services;
    this.#tool = tool;
    this.#confirm = confirm;
  }

  /** Approves `path` (as the LLM gave it) and returns its real path; throws `forbidden`, `not_found` or `invalid_input`. */
  authorize(path: string, options: PathApprovalOptions = {}): Promise<string> {
    const { parameter = 'path', ...approval } = options;
    if (path === '') throw new InvalidParametersError(`Expected \`${parameter}\` to be a non-empty path, got "".`, { parameter });
    // Only a write can need confirming; a read passes its options on as they are.
    const withConfirm = approval.access === 'write' ? { ...approval, confirm: this.#confirm } : approval;
    return authorizePath(this.#services, this.#tool, path, withConfirm);
  }

  /** Whether a listing or search result must be filtered through {@link isReadable} at all. */
  get hasBlockedPaths(): boolean {
    return this.#services.getBlockedPaths().length > 0;
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
   * link whose real path is the path itself and no process's private `/proc` entry,
   * `authorizePath` could only approve it. Everything else (blocked paths, hard links, symlinks
   * anywhere in the path, private `/proc` entries) goes through the full check.
   */
  async isFoundFileReadable(path: string): Promise<boolean> {
    if (!this.hasBlockedPaths) {
      try {
        const stats = lstatSync(path);
        if (stats.isFile() && stats.nlink === 1 && realpathSync.native(path) === path && !isPrivateProcessEntry(path)) return true;
      } catch {
        // vanished or unreadable: let the full check decide
      }
    }
    return this.isReadable(path);
  }

  /** How to show a real path to the LLM: relative to the working directory when inside it. */
  async display(path: string): Promise<string> {
    const cwd = await realWorkingDirectory(this.#services);
    if (path === cwd) return '.';
    // Both are real paths, so the part after `cwd/` is already the relative path.
    return isWithin(path, cwd) ? path.slice(cwd === '/' ? 1 : cwd.length + 1) : path;
  }
}
