import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ConfirmFunction, PresetName } from '@nexus/core';
import { createTestAgent, type TestAgent } from '@nexus/registry/testing';
import { type TestDir, type Tree, testdir } from '@nexus/test-utils';
import type { FileSkillOptions, ReadTracker } from './index.js';
import { fsSkills } from './index.js';

/** A test agent with the file family whose working directory is `work/`; `outside/` beside it must stay untouched. */
export interface Workspace extends TestAgent {
  dir: TestDir;
  work: string;
  outside: string;
}

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  preset?: PresetName;
  /** The tree of `outside/` (default: a `secret.txt`). */
  outside?: Tree;
  /** Blocked paths, relative to `work/`. */
  blockedPaths?: string[];
  /** The `confirm` service, as `createTestAgent` takes it. */
  confirm?: boolean | ConfirmFunction;
  fileSkillOptions?: FileSkillOptions;
  readTracker?: ReadTracker;
}

/** Builds `work/` from `tree` and `outside/` beside it, and a test agent working in `work/`. */
export async function createWorkspace(tree: Tree = {}, options: WorkspaceOptions = {}): Promise<Workspace> {
  const { preset, outside = { 'secret.txt': 'top secret\n' }, blockedPaths = [], confirm, fileSkillOptions, readTracker } = options;
  const dir = await testdir({ work: tree, outside });
  const work = dir.join('work');
  const agent = createTestAgent({
    cwd: work,
    families: [fsSkills],
    blockedPaths: blockedPaths.map((path) => dir.join('work', path)),
    services: { ...(fileSkillOptions && { fileSkillOptions }), ...(readTracker && { readTracker }) },
    ...(preset && { preset }),
    ...(confirm !== undefined && { confirm }),
  });
  return { ...agent, dir, work, outside: dir.join('outside') };
}

const packagesDirectory = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Bundles `source`, TypeScript that may import `@nexus/core` and `@nexus/skills-fs` (from their
 * sources, like the tests), into one ES module in `dir` that a child process runs with plain
 * `node`; returns its path. esbuild comes with tsup, the repository's build tool.
 */
export async function bundleChildScript(dir: TestDir, name: string, source: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const esbuild = (await import(createRequire(require.resolve('tsup')).resolve('esbuild'))) as {
    build(options: Record<string, unknown>): Promise<unknown>;
  };
  const entry = dir.join(`${name}.ts`);
  const outfile = dir.join(`${name}.mjs`);
  await writeFile(entry, source);
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    alias: Object.fromEntries(
      ['core', 'process', 'skills-fs'].map((name) => [`@nexus/${name}`, `${packagesDirectory}${name}/src/index.ts`]),
    ),
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}
