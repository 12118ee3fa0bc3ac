import { chmod, link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One entry of a {@link testdir} tree. */
export type TreeEntry =
  | string
  | Uint8Array
  | { symlink: string }
  | { hardlink: string }
  | { content: string | Uint8Array; mode: number }
  | Tree;

/** A directory described inline: names to file contents, links or sub-directories. */
export interface Tree {
  [name: string]: TreeEntry;
}

/** A temporary directory that removes itself. */
export interface TestDir {
  /** Real absolute path (symlinks of the temp root resolved). */
  readonly path: string;
  /** Absolute path of a relative path inside the directory. */
  join(...parts: string[]): string;
  /** Removes the directory and everything in it. */
  cleanup(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function isTree(entry: TreeEntry): entry is Tree {
  return (
    typeof entry === 'object' &&
    !(entry instanceof Uint8Array) &&
    !('symlink' in entry) &&
    !('hardlink' in entry) &&
    !('content' in entry && 'mode' in entry)
  );
}

/** Writes a {@link Tree} under `root`. Link targets are written as given (relative or absolute). */
export async function writeTree(root: string, tree: Tree): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const [name, entry] of Object.entries(tree)) {
    const target = join(root, name);
    await mkdir(dirname(target), { recursive: true });
    if (typeof entry === 'string' || entry instanceof Uint8Array) await writeFile(target, entry);
    else if ('symlink' in entry && typeof entry.symlink === 'string') await symlink(entry.symlink, target);
    else if ('hardlink' in entry && typeof entry.hardlink === 'string') await link(entry.hardlink, target);
    else if (isTree(entry)) await writeTree(target, entry);
    else {
      const file = entry as { content: string | Uint8Array; mode: number };
      await writeFile(target, file.content);
      await chmod(target, file.mode);
    }
  }
}

/**
 * Creates a temporary directory holding `tree`, e.g.
 * `await testdir({ 'a.txt': 'hi', sub: { 'b.txt': 'x' }, link: { symlink: '/etc' } })`.
 */
export async function testdir(tree: Tree = {}, prefix = 'nexus-test-'): Promise<TestDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  await writeTree(path, tree);
  const cleanup = () => rm(path, { recursive: true, force: true });
  return { path, join: (...parts) => join(path, ...parts), cleanup, [Symbol.asyncDispose]: cleanup };
}
