import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PackageLocation } from './discover-skill-packages.js';
import { SKILL_FILE_NAME } from './discover-skill-packages.js';
import { currentStamp } from './file-stamp.js';
import type { PackageLoadContext } from './load-skill-package.js';
import { PYTHON_COMMANDS_FILE, SIDE_FILE } from './package-files.js';
import { readSkillSource, type SkillSource } from './read-skill-file.js';
import { type FrontmatterSummary, scanFrontmatter } from './scan-frontmatter.js';
import { SCRIPT_COMMANDS_FILE } from './script-commands.js';
import type { SkillDiagnostic } from './skill-diagnostic.js';
import { type BrokenSkillPackage, isLoaded, type SkillPackage, type TrustState } from './skill-package.js';
import { commandToolName } from './tool-names.js';
import { packageTrust } from './trust-records.js';

/** The versions of a package's files its index entry was made from. */
export interface PackageStamps {
  /** Of `SKILL.md`. */
  readonly skillFile: string;
  /** Of `scripts/commands.mjs` and `scripts/commands.py` (`missing` when there is neither). */
  readonly script: string;
  /** Of `agents/nexus.yaml` (`missing` when there is none). */
  readonly sideFile: string;
}

/** The stamp of a package's script-commands modules: `missing` when there is neither. */
export function scriptStamp(folder: string): string {
  const node = currentStamp(join(folder, SCRIPT_COMMANDS_FILE));
  const python = currentStamp(join(folder, PYTHON_COMMANDS_FILE));
  return node === 'missing' && python === 'missing' ? 'missing' : `${node} ${python}`;
}

/**
 * A package as a listing knows it: from a quick scan of its frontmatter, or from loading it (which
 * `loaded` then holds). Enough for ghost tools, search and the `skill` tool.
 */
export interface IndexedSkillPackage {
  readonly name: string;
  readonly description: string;
  readonly folder: string;
  readonly folderName: string;
  readonly location: PackageLocation;
  readonly root: PackageLocation['root'];
  readonly skillFile: string;
  readonly routingKeywords: readonly string[];
  readonly intents: readonly string[];
  readonly trust: TrustState;
  readonly trusted: boolean;
  /** Its tools (none while it is untrusted). */
  readonly tools: readonly string[];
  /** `disable-model-invocation: true`: offered to a person only. */
  readonly hiddenFromModel: boolean;
  readonly stamps: PackageStamps;
  /** The package fully loaded, once it was. */
  readonly loaded?: SkillPackage;
  readonly diagnostics: readonly SkillDiagnostic[];
}

/** Loads a package in full (the YAML parser, zod and, for script commands, a child Node process). */
export type PackageLoader = (location: PackageLocation, context: PackageLoadContext) => Promise<SkillPackage | BrokenSkillPackage>;

/** The stamps of a package's files now. */
export function packageStamps(folder: string): PackageStamps {
  return {
    skillFile: currentStamp(join(folder, SKILL_FILE_NAME)),
    script: scriptStamp(folder),
    sideFile: currentStamp(join(folder, SIDE_FILE)),
  };
}

/** The index entry of a package that loaded. */
export function indexOfLoaded(skillPackage: SkillPackage, location: PackageLocation, stamps: PackageStamps): IndexedSkillPackage {
  const { name, description, folder, folderName, root, skillFile, trust, trusted, manifest, commands, diagnostics } = skillPackage;
  return {
    name,
    description,
    folder,
    folderName,
    location,
    root,
    skillFile,
    routingKeywords: manifest.routing_keywords ?? [],
    intents: manifest.intents ?? [],
    trust,
    trusted,
    tools: trusted ? commands.map((command) => command.tool) : [],
    hiddenFromModel: skillPackage.hiddenFromModel,
    stamps,
    loaded: skillPackage,
    diagnostics,
  };
}

function indexOfSummary(
  summary: FrontmatterSummary,
  location: PackageLocation,
  stamps: PackageStamps,
  trust: TrustState,
): IndexedSkillPackage {
  const name = summary.name ?? location.folderName;
  const trusted = trust === 'user' || trust === 'trusted';
  const tools = summary.command ? [commandToolName(name, undefined)] : summary.commands.map((command) => commandToolName(name, command));
  return {
    name,
    description: summary.description,
    folder: location.folder,
    folderName: location.folderName,
    location,
    root: location.root,
    skillFile: join(location.folder, SKILL_FILE_NAME),
    routingKeywords: summary.routingKeywords,
    intents: summary.intents,
    trust,
    trusted,
    tools: trusted ? tools : [],
    hiddenFromModel: summary.hiddenFromModel,
    stamps,
    diagnostics: [],
  };
}

/** The location as it is now: its entries read again (a package gains and loses files). */
export async function refreshLocation(location: PackageLocation): Promise<PackageLocation | undefined> {
  const entries = await readdir(location.folder, { withFileTypes: true }).catch(() => undefined);
  const skillFile = entries?.find((entry) => entry.name === SKILL_FILE_NAME);
  if (!entries || !skillFile) return undefined;
  return { ...location, entries: entries.map((entry) => entry.name), irregularSkillFile: !skillFile.isFile() };
}

/**
 * Indexes one package for a listing. A `SKILL.md` whose frontmatter the quick scan reads, in a
 * package with no script commands to list, costs one read and no parser; any other is loaded in
 * full (with `load`), which also reports what is wrong with a broken one. Stamps are taken before
 * reading, so an edit during indexing shows up at the next check.
 */
export async function indexSkillPackage(
  location: PackageLocation,
  context: PackageLoadContext,
  load: PackageLoader,
): Promise<IndexedSkillPackage | BrokenSkillPackage> {
  const hasScripts = location.entries.includes('scripts');
  const trust = await packageTrust(location, context.trustRecords);
  const source = location.irregularSkillFile ? undefined : readSource(join(location.folder, SKILL_FILE_NAME));
  const script = hasScripts ? scriptStamp(location.folder) : 'missing';
  const summary = source && scanFrontmatter(source.text);
  const listsScripts = script !== 'missing' && (trust === 'user' || trust === 'trusted') && context.listScriptCommands;
  // A side file's keys (its commands) are read by loading the package in full.
  const sideFile = location.entries.includes('agents') ? currentStamp(join(location.folder, SIDE_FILE)) : 'missing';
  if (source && summary && !listsScripts && sideFile === 'missing')
    return indexOfSummary(summary, location, { skillFile: source.stamp, script, sideFile }, trust);
  const stamps = packageStamps(location.folder);
  const result = await load(location, context);
  return isLoaded(result) ? indexOfLoaded(result, location, stamps) : result;
}

/** The source, or undefined where it cannot be read (loading the package then says why). */
function readSource(file: string): SkillSource | undefined {
  try {
    return readSkillSource(file);
  } catch {
    return undefined;
  }
}

/** Whether an indexing result is a package (not a broken one). */
export function isIndexed(result: IndexedSkillPackage | BrokenSkillPackage): result is IndexedSkillPackage {
  return 'stamps' in result;
}
