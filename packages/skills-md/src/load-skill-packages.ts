import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentPermissions,
  expectOption,
  isPositiveNumber,
  type JsonObject,
  ServiceContainer,
  type SkillContext,
  type SkillFamily,
  type ToolResult,
} from '@nexus/core';
import { DEFAULT_MAX_OUTPUT_BYTES, type ExecSettings, parseExecSettings } from '@nexus/process';
import type { CommandRuntime } from './command-skill.js';
import { discoverSkillPackages } from './discover-skill-packages.js';
import type { PackageLoadContext } from './load-skill-package.js';
import { settleNames } from './settle-names.js';
import type { SkillDiagnostic } from './skill-diagnostic.js';
import {
  defaultConfigDirectory,
  defaultStateDirectory,
  isSkillFolderName,
  SKILL_FOLDER_NAMES,
  type SkillFolderName,
  type SkillRoot,
  skillRoots,
} from './skill-locations.js';
import { type BrokenSkillPackage, isLoaded, type SkillPackage } from './skill-package.js';
import { resolveSkillPackage, SkillResolutionError } from './skill-resolution.js';
import { type SkillErrorType, type SkillOutcome, skillResultData, toSkillToolResult } from './skill-result.js';
import { skillsMdFamily } from './skills-md-family.js';
import { readTrustRecords, type TrustRecord } from './trust-records.js';

/** Where default outputs go, relative to the working directory (seed 003's `mybox/output/`). */
export const DEFAULT_OUTPUT_DIRECTORY = 'mybox/output';

/** Options of {@link loadSkillPackages}. */
export interface LoadSkillPackagesOptions {
  /** The working directory: its project roots are scanned, and commands run in it. */
  cwd: string;
  /** Further user roots (trusted), scanned after the others. */
  roots?: readonly string[];
  /** Skip the working directory's roots (`.nexus/skills`, `.agents/skills`, `.claude/skills`, `.github/skills`). Default `false`. */
  skipProjectRoots?: boolean;
  /** Default folders not to scan, by name (`~/.claude/skills`, `.github/skills`, …: `SKILL_FOLDER_NAMES`). Default none. */
  disabledFolders?: readonly SkillFolderName[];
  /**
   * Scan exactly these roots (or package folders) instead of the default ones — `nexus skills
   * check <path>`. A `project` root's packages are untrusted, so their scripts are not run.
   */
  scan?: readonly SkillRoot[];
  /** The user's Nexus config directory (default `$XDG_CONFIG_HOME/nexus`, else `~/.config/nexus`): `skills/` and `templates/` in it. */
  configDirectory?: string;
  /** Where trust and usage records are kept (default `$XDG_STATE_HOME/nexus`, else `~/.local/state/nexus`). */
  stateDirectory?: string;
  /** The home directory, whose `.agents/skills`, `.config/agents/skills`, `.claude/skills` and `.copilot/skills` are user roots (default `$HOME`). */
  homeDirectory?: string;
  /** Where outputs without a path go, relative to the working directory unless absolute (default `mybox/output`). */
  outputDirectory?: string;
  /** Cap of each of a command's stdout and stderr, in bytes (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * Run the script host to list the commands of trusted packages' `scripts/commands.mjs` (default
   * `true`). Listing runs the module's code, so turn it off where commands cannot run anyway (the
   * `sandboxed` level); their commands are then left out.
   */
  listScriptCommands?: boolean;
  /**
   * The `exec` settings the commands run with (what the registry's `exec` service holds; default
   * `{ sandbox: 'auto' }`). Listing script commands runs inside the sandbox these and `permissions`
   * decide for the commands, with nothing writable.
   */
  exec?: Partial<ExecSettings>;
  /** The permission policy the commands run under: its level and blocked paths shape that sandbox (without one, the level counts as `sandboxed`). */
  permissions?: AgentPermissions;
  /** Tool names other families use; a command whose tool would take one is left out with a diagnostic. */
  reservedToolNames?: Iterable<string>;
  /** Environment the defaults are read from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /**
   * Who the family is for (default `model`): for a `person` (`nexus skills run`), packages with
   * `disable-model-invocation: true` are in it too; for the model they are left out of the
   * `skill` tool and of the tools (`packages` still lists them).
   */
  invokedBy?: 'model' | 'person';
}

/** Something that runs tools the way `SkillRegistry.execute` does. */
export interface ToolExecutor {
  execute(name: string, args?: Record<string, unknown>, options?: SkillContext): Promise<ToolResult>;
}

/** What {@link loadSkillPackages} found. */
export interface LoadedSkillPackages {
  /** The family to `use`: each trusted package's commands and the `skill` tool. */
  readonly family: SkillFamily;
  /** The packages that loaded and are in effect, in root order. */
  readonly packages: readonly SkillPackage[];
  /** Packages that could not load, with why. */
  readonly broken: readonly BrokenSkillPackage[];
  /** Packages hidden by one of the same name in an earlier root. */
  readonly shadowed: readonly SkillPackage[];
  /** Every problem, warning and note, of every package and of the scan. */
  readonly diagnostics: readonly SkillDiagnostic[];
  /** The roots scanned, in order. */
  readonly roots: readonly SkillRoot[];
  /** Where trust and usage records are kept. */
  readonly stateDirectory: string;
  /**
   * Resolves a name or folder name to its package (loaded or broken); throws a
   * {@link SkillResolutionError} for none or for two.
   */
  resolve(word: string): SkillPackage | BrokenSkillPackage;
  /**
   * Runs `<skill>[.<command>]` (seed 003's `@skill args`) through `executor` (a registry using the
   * family). A word that names no package, names two, a broken package, an untrusted one or a
   * missing command answers in seed 003's protocol without running anything.
   */
  call(executor: ToolExecutor, reference: string, args?: Record<string, unknown>, options?: SkillContext): Promise<ToolResult>;
}

/** Services like those the commands run with, for the runs of packages' code while loading. */
function commandServices(cwd: string, exec: ExecSettings, permissions: AgentPermissions | undefined): ServiceContainer {
  const services = new ServiceContainer().register('cwd', cwd).register('exec', exec);
  return permissions ? services.register('permissions', permissions) : services;
}

/** What loading a package needs of these settings, with the trust records read. */
export function loadContextOf(settings: LoadSettings, trustRecords: Readonly<Record<string, TrustRecord>>): PackageLoadContext {
  return {
    trustRecords,
    services: settings.commandServices,
    maxOutputBytes: settings.maxOutputBytes,
    listScriptCommands: settings.listScriptCommands,
  };
}

/** The options with their defaults, checked (an `InvalidOptionError` names a bad one). */
export function normalizeOptions(options: LoadSkillPackagesOptions) {
  const {
    cwd,
    roots = [],
    skipProjectRoots = false,
    disabledFolders = [],
    env = process.env,
    outputDirectory = DEFAULT_OUTPUT_DIRECTORY,
  } = options ?? ({} as LoadSkillPackagesOptions);
  expectOption(typeof cwd === 'string' && cwd.startsWith('/'), 'cwd', 'an absolute path', cwd);
  expectOption(Array.isArray(roots) && roots.every((root) => typeof root === 'string'), 'roots', 'an array of paths', roots);
  expectOption(
    Array.isArray(disabledFolders) && disabledFolders.every(isSkillFolderName),
    'disabledFolders',
    `a list of skill folder names (${SKILL_FOLDER_NAMES.join(', ')})`,
    disabledFolders,
  );
  expectOption(typeof outputDirectory === 'string' && outputDirectory !== '', 'outputDirectory', 'a path', outputDirectory);
  const {
    configDirectory = defaultConfigDirectory(env),
    stateDirectory = defaultStateDirectory(env),
    homeDirectory = env.HOME || homedir(),
  } = options;
  for (const [name, value] of Object.entries({ configDirectory, stateDirectory, homeDirectory })) {
    expectOption(typeof value === 'string' && value.startsWith('/'), name, 'an absolute path', value);
  }
  const { maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES, listScriptCommands = true, reservedToolNames = [], scan, permissions } = options;
  const { invokedBy = 'model' } = options;
  expectOption(invokedBy === 'model' || invokedBy === 'person', 'invokedBy', '"model" or "person"', invokedBy);
  const exec = parseExecSettings(options.exec);
  expectOption(
    permissions === undefined || (typeof permissions === 'object' && permissions !== null && typeof permissions.level === 'string'),
    'permissions',
    'a permission policy (resolvePreset)',
    permissions,
  );
  expectOption(
    scan === undefined || (Array.isArray(scan) && scan.every((root) => typeof root?.path === 'string' && root.path.startsWith('/'))),
    'scan',
    'an array of roots ({ path, scope }) with absolute paths',
    scan,
  );
  expectOption(isPositiveNumber(maxOutputBytes), 'maxOutputBytes', 'a positive number', maxOutputBytes);
  expectOption(typeof listScriptCommands === 'boolean', 'listScriptCommands', 'a boolean', listScriptCommands);
  return {
    cwd,
    roots,
    skipProjectRoots,
    disabledFolders,
    configDirectory,
    stateDirectory,
    homeDirectory,
    outputDirectory,
    maxOutputBytes,
    listScriptCommands,
    commandServices: commandServices(cwd, exec, permissions),
    reservedToolNames: new Set(reservedToolNames),
    scan,
    invokedBy,
  };
}

/** The settings {@link normalizeOptions} gives. */
export type LoadSettings = ReturnType<typeof normalizeOptions>;

/** The packages of `packages` offered to whom these settings are for: to the model, not those it may not invoke. */
export function offeredPackages<P extends { readonly hiddenFromModel: boolean }>(settings: LoadSettings, packages: readonly P[]): P[] {
  return settings.invokedBy === 'person' ? [...packages] : packages.filter((skillPackage) => !skillPackage.hiddenFromModel);
}

/** The roots these settings scan, in order. */
export function rootsOf(settings: LoadSettings): SkillRoot[] {
  return settings.scan ?? skillRoots(settings).filter((root) => !(settings.skipProjectRoots && root.scope === 'project'));
}

/** Where the commands of these settings find their surroundings. */
export function runtimeOf(settings: LoadSettings): CommandRuntime {
  return {
    outputDirectory: settings.outputDirectory,
    stateDirectory: settings.stateDirectory,
    templatesDirectory: join(settings.configDirectory, 'templates'),
    maxOutputBytes: settings.maxOutputBytes,
  };
}

function answer(
  skill: string,
  command: string,
  errorType: SkillErrorType,
  summary: string,
  data: JsonObject,
  recoverable: boolean,
): ToolResult {
  const outcome: SkillOutcome = {
    state: errorType === 'ParamMissing' ? 'pending' : 'error',
    skill,
    command,
    errorType,
    recoverable,
    data,
    summary,
    seconds: 0,
  };
  return toSkillToolResult(outcome, skillResultData(outcome));
}

/**
 * Finds, loads and checks the skill packages of the roots (§1): project roots of `cwd` first,
 * then the user's, then `roots`. Every package that cannot load is reported in `diagnostics` and
 * `broken` (never dropped in silence); a project package shadows a user package of the same name
 * (a warning names both), two of one name in one root are both refused. Project packages are
 * untrusted until `nexus skills trust` recorded them (§7): their commands are left out, their
 * instructions marked. Resolves with the family and all the rest; rejects only on invalid options.
 */
export async function loadSkillPackages(options: LoadSkillPackagesOptions): Promise<LoadedSkillPackages> {
  const settings = normalizeOptions(options);
  const roots = rootsOf(settings);
  const [trustRecords, { loadSkillPackage }] = await Promise.all([
    readTrustRecords(settings.stateDirectory),
    import('./load-skill-package.js'),
  ]);
  const discovery = discoverSkillPackages(roots);
  const context = loadContextOf(settings, trustRecords);
  const results = await Promise.all(discovery.locations.map((location) => loadSkillPackage(location, context)));
  const settled = settleNames(results.filter(isLoaded), roots);
  const { packages, shadowed, diagnostics: naming } = settled;
  const broken = [...results.filter((result) => !isLoaded(result)), ...settled.broken];
  const { family, diagnostics: familyDiagnostics } = skillsMdFamily(
    offeredPackages(settings, packages),
    runtimeOf(settings),
    settings.reservedToolNames,
  );
  const diagnostics = [
    ...discovery.diagnostics,
    ...results.flatMap((result) => result.diagnostics),
    ...naming.filter((diagnostic) => diagnostic.severity !== 'error'),
    ...naming.filter((diagnostic) => diagnostic.severity === 'error'),
    ...familyDiagnostics,
  ];
  const all = [...packages, ...broken];
  const resolve = (word: string) => resolveSkillPackage(all, word);
  return {
    family,
    packages,
    broken,
    shadowed,
    diagnostics,
    roots,
    stateDirectory: settings.stateDirectory,
    resolve,
    async call(executor, reference, args = {}, callOptions = {}) {
      let target: SkillPackage | BrokenSkillPackage;
      let commandName: string | undefined;
      try {
        target = resolve(reference);
      } catch (error) {
        const dot = reference.lastIndexOf('.');
        if (dot <= 0 || !SkillResolutionError.isInstance(error) || error.folders.length > 0) return resolutionAnswer(reference, error);
        try {
          target = resolve(reference.slice(0, dot));
          commandName = reference.slice(dot + 1);
        } catch (inner) {
          return resolutionAnswer(reference, inner);
        }
      }
      const skill = target.name ?? target.folderName;
      if (!isLoaded(target)) {
        const reasons = target.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((diagnostic) => diagnostic.message);
        return answer(
          skill,
          commandName ?? '',
          'MetadataMissing',
          `SKILL.md is broken: ${reasons.join('; ')}`,
          { folder: target.folder, problems: reasons },
          false,
        );
      }
      if (!target.trusted) {
        return answer(
          skill,
          commandName ?? '',
          'Untrusted',
          `the project skill is not trusted; run \`nexus skills trust ${skill}\` after checking it`,
          { folder: target.folder },
          false,
        );
      }
      const names = target.commands.map((command) => command.name);
      const command =
        commandName === undefined && target.commands.length === 1
          ? target.commands[0]
          : target.commands.find((candidate) => candidate.name === commandName);
      if (!command && commandName === undefined) {
        return answer(
          skill,
          '',
          'ParamMissing',
          `${skill} has ${names.length ? `the commands ${names.join(', ')}; name one as ${skill}.<command>` : 'no commands'}`,
          { required: ['command'], optional: names },
          true,
        );
      }
      if (!command)
        return answer(
          skill,
          commandName ?? '',
          'SkillNotFound',
          `${skill} has no command "${commandName}" (commands: ${names.join(', ') || 'none'})`,
          { commands: names },
          true,
        );
      return executor.execute(command.tool, args, callOptions);
    },
  };
}

function resolutionAnswer(reference: string, error: unknown): ToolResult {
  if (!SkillResolutionError.isInstance(error)) throw error;
  const ambiguous = error.folders.length > 1;
  return answer(
    reference,
    '',
    ambiguous ? 'ParamInvalid' : 'SkillNotFound',
    error.message.replace(/\.$/, ''),
    { folders: [...error.folders] },
    true,
  );
}
