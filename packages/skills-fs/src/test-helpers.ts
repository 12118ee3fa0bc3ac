import { type PresetName, resolvePreset, ServiceContainer, type ToolResult } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { type TestDir, type Tree, testdir } from '@nexus/test-utils';
import { type FileSkillOptions, fsSkills, type ReadTracker } from './index.js';

/** A sandbox for tests: `work/` is the agent's working directory, `outside/` must stay untouched. */
export interface Workspace {
  dir: TestDir;
  work: string;
  outside: string;
  services: ServiceContainer;
  registry: SkillRegistry;
  run(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
}

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  preset?: PresetName;
  outside?: Tree;
  blockedPaths?: string[];
  fileSkillOptions?: FileSkillOptions;
  readTracker?: ReadTracker;
}

/** Builds `work/` from `tree` and `outside/` beside it, with the file family registered. */
export async function createWorkspace(tree: Tree = {}, options: WorkspaceOptions = {}): Promise<Workspace> {
  const { preset = 'sandboxed', outside = { 'secret.txt': 'top secret\n' }, blockedPaths = [], fileSkillOptions, readTracker } = options;
  const dir = await testdir({ work: tree, outside });
  const work = dir.join('work');
  const services = new ServiceContainer();
  services.register('cwd', work);
  services.register('permissions', resolvePreset(preset, { cwd: work, blockedPaths: blockedPaths.map((path) => dir.join('work', path)) }));
  if (fileSkillOptions) services.register('fileSkillOptions', fileSkillOptions);
  if (readTracker) services.register('readTracker', readTracker);
  const registry = new SkillRegistry(services).use(fsSkills);
  return { dir, work, outside: dir.join('outside'), services, registry, run: (tool, args) => registry.execute(tool, args) };
}
