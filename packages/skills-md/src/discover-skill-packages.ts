import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isWithin } from '@nexus/core';
import { SKIPPED_DIRECTORIES } from './package-hash.js';
import { diagnosticAt, FILE_START, type SkillDiagnostic } from './skill-diagnostic.js';
import type { SkillRoot } from './skill-locations.js';

/** The file that makes a folder a skill package. */
export const SKILL_FILE_NAME = 'SKILL.md';
/** How deep below a root packages are looked for. */
export const MAX_SCAN_DEPTH = 4;
/** How many directories of one root are read before the scan stops. */
export const MAX_SCAN_DIRECTORIES = 2_000;

/** A folder holding a `SKILL.md`, found under a root. */
export interface PackageLocation {
  /** Real absolute path of the folder. */
  readonly folder: string;
  /** The folder's name as found in the root (a symlink's own name). */
  readonly folderName: string;
  readonly root: SkillRoot;
  /** Names of the folder's entries. */
  readonly entries: readonly string[];
  /** Whether its `SKILL.md` is something other than a regular file (a symlink, say), which loading checks. */
  readonly irregularSkillFile: boolean;
}

/** What a scan found, and what it could not load or where it stopped. */
export interface Discovery {
  readonly locations: PackageLocation[];
  readonly diagnostics: SkillDiagnostic[];
  /** The directories read that are not packages (roots and the folders between them and packages): where packages come and go. */
  readonly directories: string[];
}

function readEntries(directory: string): Dirent[] | undefined {
  try {
    return readdirSync(directory, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

function realpathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function scanRoot(root: SkillRoot, discovery: Discovery): void {
  const rootReal = realpathOf(root.path);
  if (rootReal === undefined) return;
  const visited = new Set<string>([rootReal]);
  const queue: { path: string; real: string; name: string; depth: number }[] = [{ path: root.path, real: rootReal, name: '', depth: 0 }];
  let read = 0;
  let tooDeep = false;
  for (let index = 0; index < queue.length; index++) {
    const directory = queue[index] as (typeof queue)[number];
    if (read === MAX_SCAN_DIRECTORIES) {
      discovery.diagnostics.push(
        diagnosticAt(
          'warning',
          root.path,
          FILE_START,
          `the scan stopped after ${MAX_SCAN_DIRECTORIES} directories; packages further on were not looked for`,
        ),
      );
      break;
    }
    read++;
    const entries = readEntries(directory.real);
    if (!entries) continue;
    const skillFile = entries.find((entry) => entry.name === SKILL_FILE_NAME);
    if (skillFile) {
      const folderName = directory.depth === 0 ? basename(directory.real) : directory.name;
      const names = entries.map((entry) => entry.name);
      discovery.locations.push({ folder: directory.real, folderName, root, entries: names, irregularSkillFile: !skillFile.isFile() });
      continue;
    }
    discovery.directories.push(directory.real);
    for (const entry of entries) {
      if (SKIPPED_DIRECTORIES.has(entry.name) || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
      const path = join(directory.path, entry.name);
      const real = entry.isDirectory() ? join(directory.real, entry.name) : realpathOf(path);
      if (real === undefined || visited.has(real)) continue;
      if (entry.isSymbolicLink()) {
        if (!statSync(real, { throwIfNoEntry: false })?.isDirectory()) continue;
        if (!isWithin(real, rootReal)) {
          if (statSync(join(real, SKILL_FILE_NAME), { throwIfNoEntry: false })) {
            discovery.diagnostics.push(
              diagnosticAt('error', path, FILE_START, `refused: the package folder is a symlink to ${real}, outside its root ${root.path}`),
            );
          }
          continue;
        }
      }
      if (directory.depth + 1 > MAX_SCAN_DEPTH) {
        tooDeep = true;
        continue;
      }
      visited.add(real);
      queue.push({ path, real, name: entry.name, depth: directory.depth + 1 });
    }
  }
  if (tooDeep) {
    discovery.diagnostics.push(
      diagnosticAt('warning', root.path, FILE_START, `the scan stops at depth ${MAX_SCAN_DEPTH}; deeper folders were not looked at`),
    );
  }
}

/**
 * Finds skill packages — folders holding a `SKILL.md` — under each root (or a root that is a
 * package itself), in root order, with synchronous reads (hundreds of small directory reads take
 * a fraction of the time through the thread pool's round trips): a
 * breadth-first scan that skips `.git` and `node_modules`, does not look inside a package,
 * stops at depth {@link MAX_SCAN_DEPTH} and after {@link MAX_SCAN_DIRECTORIES} directories per
 * root (with a warning saying so), follows a symlink only when it stays inside its root, and
 * refuses (an error diagnostic) a symlinked package folder that points outside it. Missing roots
 * are skipped quietly.
 */
export function discoverSkillPackages(roots: readonly SkillRoot[]): Discovery {
  const discovery: Discovery = { locations: [], diagnostics: [], directories: [] };
  for (const root of roots) scanRoot(root, discovery);
  return discovery;
}
