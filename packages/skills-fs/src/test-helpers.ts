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
