import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type TestDir, testdir } from './temp-dir.js';

/** A generated tree with an inside (the sandbox), an outside and a blocked area, cross-linked. */
export interface SymlinkFarm extends TestDir {
  /** The sandbox root. */
  readonly inside: string;
  /** A sibling of the sandbox that must never be reachable. */
  readonly outside: string;
  /** A prefix sibling of `inside` (`inside-evil`) that must never be reachable. */
  readonly prefixSibling: string;
  /** A directory inside the sandbox that is blocked. */
  readonly blocked: string;
  /** Every relative name created under `inside`, links included. */
  readonly names: readonly string[];
}

/**
 * Builds a farm of files, directories and symlinks of every kind (to files and directories,
 * inside and outside the sandbox, relative and absolute, dangling, chained, looping) for
 * sandbox tests.
 */
export async function createSymlinkFarm(): Promise<SymlinkFarm> {
  const dir = await testdir();
  const inside = dir.join('inside');
  const outside = dir.join('outside');
  const prefixSibling = dir.join('inside-evil');
  const blocked = join(inside, 'blocked');
  for (const directory of [inside, outside, prefixSibling, blocked, join(inside, 'sub', 'deep'), join(outside, 'sub')]) {
    await mkdir(directory, { recursive: true });
  }
  for (const file of [
    join(inside, 'file.txt'),
    join(inside, 'sub', 'deep', 'f.txt'),
    join(outside, 'secret.txt'),
    join(outside, 'sub', 's.txt'),
    join(prefixSibling, 'evil.txt'),
    join(blocked, 'key.txt'),
  ]) {
    await writeFile(file, file);
  }
  const links: Record<string, string> = {
    'link-in-file': 'file.txt',
    'link-in-dir': 'sub',
    'link-in-abs': join(inside, 'sub', 'deep'),
    'link-out-file': join(outside, 'secret.txt'),
    'link-out-dir': '../outside',
    'link-out-rel-file': '../outside/secret.txt',
    'link-prefix': '../inside-evil',
    'link-blocked': 'blocked',
    'link-blocked-file': 'blocked/key.txt',
    'link-dangling-in': 'missing.txt',
    'link-dangling-out': join(outside, 'created-by-attack.txt'),
    'link-dangling-out-dir': '../outside/newdir/file.txt',
    'link-chain-1': 'link-chain-2',
    'link-chain-2': 'link-out-dir',
    'link-loop-a': 'link-loop-b',
    'link-loop-b': 'link-loop-a',
    'link-root': '/',
    'link-proc': '/proc/self/root',
    'sub/link-up': '..',
    'sub/link-upup': '../..',
    'sub/deep/link-escape': '../../../outside',
  };
  for (const [name, target] of Object.entries(links)) await symlink(target, join(inside, name));
  const names = ['file.txt', 'sub', 'sub/deep', 'sub/deep/f.txt', 'blocked', 'blocked/key.txt', 'missing.txt', ...Object.keys(links)];
  return Object.assign(dir, { inside, outside, prefixSibling, blocked, names });
}
