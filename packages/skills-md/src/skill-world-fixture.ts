// Skill packages built in temporary directories, and agents using them, for this package's tests.
// Not part of the public API.
import type { PresetName, Services, ToolPermission } from '@nexus/core';
import { createTestAgent, type TestAgent } from '@nexus/registry/testing';
import { type TestDir, type Tree, testdir, writeTree } from '@nexus/test-utils';
import { type LoadedSkillPackages, type LoadSkillPackagesOptions, loadSkillPackages } from './load-skill-packages.js';
import { openSkillLibrary, type SkillLibrary, type SkillLibraryOptions } from './skill-library.js';
import { flushSkillUsage } from './usage-records.js';

/** A `SKILL.md` from frontmatter lines and a body. */
export function skillMd(frontmatter: string, body = '# Instructions\n\nUse it well.\n'): string {
  return `---\n${frontmatter.trim()}\n---\n${body}`;
}

/** A package tree: `SKILL.md` and `README.md`, plus any further files. */
export function skillPackage(frontmatter: string, files: Tree = {}): Tree {
  return { 'SKILL.md': skillMd(frontmatter), 'README.md': '# A skill\n', ...files };
}

/** An executable file entry. */
export const executable = (content: string) => ({ content, mode: 0o755 });

/**
 * A working directory with project roots, a user config directory, a state directory and a home,
 * all in one temporary directory: `work/` (the cwd; `work/.nexus/skills` a project root),
 * `config/nexus/skills` (a user root), `state/`, `home/`.
 */
export interface SkillWorld {
  readonly dir: TestDir;
  readonly cwd: string;
  readonly projectRoot: string;
  readonly userRoot: string;
  readonly configDirectory: string;
  readonly stateDirectory: string;
  readonly homeDirectory: string;
  /** Adds packages to the user root, by folder name. */
  addUserPackages(packages: Tree): Promise<void>;
  /** Adds packages to the project root `work/.nexus/skills`, by folder name. */
  addProjectPackages(packages: Tree): Promise<void>;
  /** Loads the packages with this world's directories (script commands listed unisolated unless `exec` says otherwise). */
  load(options?: Partial<LoadSkillPackagesOptions>): Promise<LoadedSkillPackages>;
  /** Opens the packages as a living library with this world's directories (closed with the world; listing as `load`). */
  library(options?: Partial<SkillLibraryOptions>): Promise<SkillLibrary>;
  /** Opens a library and makes a trusted test agent using its family (commands run unisolated). */
  libraryAgent(options?: Partial<SkillLibraryOptions>): Promise<TestAgent & { library: SkillLibrary }>;
  /** Loads the packages and makes a test agent using their family (commands run unisolated unless `exec` says otherwise). */
  agent(options?: {
    preset?: PresetName;
    confirm?: boolean;
    load?: Partial<LoadSkillPackagesOptions>;
    services?: Partial<Services>;
    allowedPaths?: string[];
    tools?: Record<string, Partial<ToolPermission>>;
    timeoutMs?: number;
  }): Promise<TestAgent & { loaded: LoadedSkillPackages }>;
}

/** Makes a {@link SkillWorld}; `cleanup()` its `dir` afterwards (which waits for usage records still being written). */
export async function skillWorld(): Promise<SkillWorld> {
  const made = await testdir(
    { work: { '.nexus': { skills: {} } }, config: { nexus: { skills: {} } }, state: {}, home: {} },
    'nexus-skills-md-',
  );
  const libraries: SkillLibrary[] = [];
  const dir = {
    ...made,
    cleanup: async () => {
      await Promise.all(libraries.splice(0).map((library) => library.close()));
      await flushSkillUsage();
      await made.cleanup();
    },
  };
  const world: SkillWorld = {
    dir,
    cwd: dir.join('work'),
    projectRoot: dir.join('work', '.nexus', 'skills'),
    userRoot: dir.join('config', 'nexus', 'skills'),
    configDirectory: dir.join('config', 'nexus'),
    stateDirectory: dir.join('state'),
    homeDirectory: dir.join('home'),
    addUserPackages: (packages) => writeTree(world.userRoot, packages),
    addProjectPackages: (packages) => writeTree(world.projectRoot, packages),
    load: (options = {}) => loadSkillPackages({ ...defaults(), ...options }),
    async library(options = {}) {
      const library = await openSkillLibrary({ ...defaults(), ...options });
      libraries.push(library);
      return library;
    },
    async libraryAgent(options = {}) {
      const library = await world.library(options);
      const agent = createTestAgent({
        cwd: world.cwd,
        preset: 'trusted',
        families: [library.family],
        services: { exec: { sandbox: 'none' } },
      });
      await agent.registry.refresh();
      return Object.assign(agent, { library });
    },
    async agent(options = {}) {
      const loaded = await world.load(options.load);
      const agent = createTestAgent({
        cwd: world.cwd,
        preset: options.preset ?? 'trusted',
        families: [loaded.family],
        ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
        ...(options.allowedPaths ? { allowedPaths: options.allowedPaths } : {}),
        ...(options.tools ? { tools: options.tools } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        services: { exec: { sandbox: 'none' }, ...options.services },
      });
      return Object.assign(agent, { loaded });
    },
  };
  /** The options `load` and `library` share: this world's directories, script commands listed unisolated. */
  const defaults = (): LoadSkillPackagesOptions => ({
    cwd: world.cwd,
    configDirectory: world.configDirectory,
    stateDirectory: world.stateDirectory,
    homeDirectory: world.homeDirectory,
    exec: { sandbox: 'none' },
  });
  return world;
}
