import type { CommandTemplate } from './command-template.js';
import type { CommandCategory } from './manifest-limits.js';
import type { SkillDiagnostic } from './skill-diagnostic.js';
import type { SkillRoot } from './skill-locations.js';
import type { SkillManifest } from './skill-manifest.js';
import type { ParameterDefinitions } from './skill-parameters.js';

/** How far a package is trusted to run its commands (§7). */
export type TrustState =
  /** Under a user root: trusted. */
  | 'user'
  /** A project package the user trusted, unchanged since. */
  | 'trusted'
  /** A project package never trusted. */
  | 'untrusted'
  /** A project package that changed since it was trusted. */
  | 'changed';

/** One command of a package: a template (§3) or a script command (§5). */
export interface PackageCommand {
  /** The command's name (`run` for a package's single `command`). */
  readonly name: string;
  /** Its tool: `<skill>` or `<skill>__<command>`. */
  readonly tool: string;
  readonly description: string;
  readonly category: CommandCategory;
  readonly parameters: ParameterDefinitions;
  /** At most 60. */
  readonly timeoutSeconds: number;
  /** The compiled template of a template command. */
  readonly template?: CommandTemplate;
  /** The module of a script command. */
  readonly script?: string;
  /** Of a script command of `scripts/commands.py`: the decorated function it calls (else `scripts/commands.mjs`'s). */
  readonly pythonFunction?: string;
  /** The module's text as it was listed: what runs until a new version loads, even while the file holds a broken edit. */
  readonly scriptSource?: string;
  /** The file stamp of the module before `scriptSource` was read: while the file keeps it, the file itself runs. */
  readonly scriptStamp?: string;
}

/** A package that loaded. */
export interface SkillPackage {
  /** The skill's name (the frontmatter's `name`, else the folder's). */
  readonly name: string;
  readonly description: string;
  /** Real absolute path of the folder. */
  readonly folder: string;
  /** The folder's name in its root. */
  readonly folderName: string;
  readonly root: SkillRoot;
  /** Absolute path of its `SKILL.md`. */
  readonly skillFile: string;
  readonly manifest: SkillManifest;
  readonly trust: TrustState;
  /** Whether its commands are offered: a user package, or a project package trusted and unchanged. */
  readonly trusted: boolean;
  /** Its commands; for an untrusted package, only those of `SKILL.md` (its scripts are not run to list them). */
  readonly commands: readonly PackageCommand[];
  /**
   * {@link hashSkillPackage} of its folder when it was loaded, for a trusted package with commands:
   * its tools carry it as `packageDigest`, so an approval asked before the package changed is stale.
   */
  readonly digest?: string;
  /** Whether it has `scripts/commands.mjs` or `scripts/commands.py`, and whether its commands were listed. */
  readonly scriptCommands: 'none' | 'listed' | 'not inspected';
  /**
   * The ways its `SKILL.md` is not portable — keys other clients reject, a name or description
   * outside the standard's rules, metadata that is not strings; empty when every client loads it.
   */
  readonly portability: readonly string[];
  /** `disable-model-invocation: true`: left out of what the model is offered; a person still runs it. */
  readonly hiddenFromModel: boolean;
  /** Its warnings and notes (a package with errors does not load). */
  readonly diagnostics: readonly SkillDiagnostic[];
}

/** A package that could not load, and why. */
export interface BrokenSkillPackage {
  /** The name its frontmatter gave, when it could be read. */
  readonly name?: string;
  readonly folder: string;
  readonly folderName: string;
  readonly root: SkillRoot;
  readonly skillFile: string;
  /** Its problems; at least one is an error. */
  readonly diagnostics: readonly SkillDiagnostic[];
}

/** Whether a load result is a package that loaded. */
export function isLoaded(result: SkillPackage | BrokenSkillPackage): result is SkillPackage {
  return 'commands' in result;
}
