import { nexusStateDir, type SkillFamily } from '@nexus/core';
import { utilitySkills } from '@nexus/registry';
import type {
  LoadedSkillPackages,
  LoadSkillPackagesOptions,
  SkillDiagnostic,
  SkillFolderName,
  SkillLibrary,
  SkillPackagesReport,
} from '@nexus/skills-md';
import { permissionsOf } from './build-services.js';
import type { Settings } from './resolve-settings.js';

/** Loads a family; only the skills family reads the settings and the tool names the other families took. */
type FamilyLoader = (settings: Settings, reservedToolNames: readonly string[]) => Promise<SkillFamily>;

/**
 * Every skill family the `nexus` command can serve, by the name used in `--families` and the
 * config file, in the order their tools are listed. Each is loaded only when enabled, so a family
 * left out costs no start-up time. Adding a family is one line here.
 * `skills` (SKILL.md packages) is only on when chosen: project packages are content of the repository.
 * So is `agents`: its tools need an agent server (`nexus serve`) to talk to.
 */
const FAMILIES = {
  fs: () => import('@nexus/skills-fs').then((module) => module.fsSkills),
  exec: () => import('@nexus/skills-exec').then((module) => module.execSkills),
  git: () => import('@nexus/skills-git').then((module) => module.gitSkills),
  gitlab: () => import('@nexus/skills-gitlab').then((module) => module.gitlabSkills),
  utility: async () => utilitySkills,
  agents: () => import('@nexus/skills-agents').then((module) => module.agentSkills),
  skills: (settings, reservedToolNames) => openSkillLibraryFor(settings, reservedToolNames).then((library) => library.family),
} as const satisfies Record<string, FamilyLoader>;

/** Name of a family in {@link FAMILIES}. */
export type FamilyName = keyof typeof FAMILIES;

/** Families that are on only when chosen (`--families`, the config's `families`). */
export const OPT_IN_FAMILIES: readonly FamilyName[] = ['skills', 'agents'];

/** The family names, in listing order. */
export const FAMILY_NAMES = Object.keys(FAMILIES) as [FamilyName, ...FamilyName[]];

/** Whether `name` is a known family. */
export function isFamilyName(name: string): name is FamilyName {
  return Object.hasOwn(FAMILIES, name);
}

const loadedSkills = new WeakMap<Settings, Promise<LoadedSkillPackages>>();

/** How the settings' commands run, for the skill packages: their script commands are listed inside the same sandbox. */
export function skillCommandIsolation(settings: Settings): Pick<LoadSkillPackagesOptions, 'exec' | 'permissions'> {
  return { exec: settings.exec, permissions: permissionsOf(settings) };
}

/**
 * Where the settings' skill packages are and how they load, for both loaders: the working directory's
 * and the user's roots, the output directory and environment of their commands, and script commands
 * listed (which runs their module) only where commands can run, above `sandboxed`, and inside the
 * sandbox the commands run in.
 */
function skillPackageOptions(settings: Settings, reservedToolNames: readonly string[]): LoadSkillPackagesOptions {
  const { roots, outputDirectory, environment, disabledFolders } = settings.skills;
  return {
    cwd: settings.cwd,
    ...skillCommandIsolation(settings),
    roots,
    disabledFolders: disabledFolders as SkillFolderName[],
    ...(settings.skills.invokedBy ? { invokedBy: settings.skills.invokedBy } : {}),
    ...(outputDirectory ? { outputDirectory } : {}),
    env: environment,
    listScriptCommands: settings.preset !== 'sandboxed',
    reservedToolNames,
  };
}

/**
 * The skill packages (`@nexus/skills-md`) of these settings ({@link skillPackageOptions}), loaded once
 * per settings object; trust and usage records are in the user's state directory.
 */
export function loadSkillPackagesFor(settings: Settings, reservedToolNames: readonly string[] = []): Promise<LoadedSkillPackages> {
  let loaded = loadedSkills.get(settings);
  if (!loaded) {
    loaded = import('@nexus/skills-md').then(({ loadSkillPackages }) =>
      loadSkillPackages(skillPackageOptions(settings, reservedToolNames)),
    );
    loadedSkills.set(settings, loaded);
  }
  return loaded;
}

const openLibraries = new WeakMap<Settings, Promise<SkillLibrary>>();

/**
 * The skill packages of these settings as a living library (hot reload, ghost tools, LRU loading,
 * `skill_search`), opened once per settings object: what the skills family serves. Its watchers
 * never keep the process alive; {@link closeSkillLibrary} stops them.
 */
export function openSkillLibraryFor(settings: Settings, reservedToolNames: readonly string[] = []): Promise<SkillLibrary> {
  let library = openLibraries.get(settings);
  if (!library) {
    const { maxLoaded, pinned } = settings.skills;
    library = import('@nexus/skills-md').then(({ openSkillLibrary }) =>
      openSkillLibrary({ ...skillPackageOptions(settings, reservedToolNames), ...(maxLoaded ? { maxLoaded } : {}), pinned }),
    );
    openLibraries.set(settings, library);
  }
  return library;
}

/**
 * What `nexus serve` answers `list_skill_packages` with (its console's Skills page): the skills
 * family's library described afresh — trust read from the records it uses — or `undefined` when
 * the family is off.
 */
export function skillPackageIndexFor(settings: Settings): (() => Promise<SkillPackagesReport>) | undefined {
  if (!settings.families.includes('skills')) return undefined;
  return async () => {
    const [{ describeSkillPackages }, library] = await Promise.all([import('@nexus/skills-md'), openSkillLibraryFor(settings)]);
    return describeSkillPackages(library, nexusStateDir(settings.skills.environment));
  };
}

/** Stops the skill library of these settings, when one was opened. */
export async function closeSkillLibrary(settings: Settings): Promise<void> {
  await (await openLibraries.get(settings))?.close();
}

/**
 * The skill packages that could not load, as `file:line:col: error: reason` lines (none when the
 * skills family is off), and from then on each new one to `onProblem`: a change on disk that did
 * not load, a package that turned out broken when it was first used.
 */
export async function skillPackageProblems(settings: Settings, onProblem?: (problem: string) => void): Promise<string[]> {
  if (!settings.families.includes('skills')) return [];
  const [{ formatDiagnostic }, library] = await Promise.all([import('@nexus/skills-md'), openSkillLibraryFor(settings)]);
  await library.refresh();
  const errors = (diagnostics: readonly SkillDiagnostic[]) => diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (onProblem) library.onDiagnostic((diagnostic) => onProblem(formatDiagnostic(diagnostic)));
  return errors(library.diagnostics).map(formatDiagnostic);
}

/** Loads the named families, keeping their order; the skills family after the others, so it leaves their tool names alone. */
export async function loadFamilies(names: readonly FamilyName[], settings: Settings): Promise<SkillFamily[]> {
  const loader = (name: FamilyName): FamilyLoader => FAMILIES[name];
  const others = await Promise.all(names.map((name) => (name === 'skills' ? undefined : loader(name)(settings, []))));
  const reserved = others.flatMap((family) => family?.skills.map((spec) => spec.name) ?? []);
  return Promise.all(names.map((name, index) => others[index] ?? loader(name)(settings, reserved)));
}
