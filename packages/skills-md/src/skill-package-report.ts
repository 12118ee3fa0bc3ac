import type { SkillDiagnostic } from './skill-diagnostic.js';
import type { SkillLibrary, SkillPackageState } from './skill-library.js';
import type { SkillScope } from './skill-locations.js';
import type { TrustState } from './skill-package.js';
import { packageTrust, readTrustRecords } from './trust-records.js';

/** One package in effect, as {@link describeSkillPackages} reports it: plain JSON. */
export interface SkillPackageReport {
  readonly name: string;
  readonly description: string;
  /** Real absolute path of its folder. */
  readonly folder: string;
  /** Whether it is under a user root or a project's. */
  readonly scope: SkillScope;
  /** `user`, or for a project package `trusted`, `untrusted` or `changed` (since it was trusted). */
  readonly trust: TrustState;
  /** How its tools are offered: `loaded`, `ghost` or `unlisted`. */
  readonly state: SkillPackageState;
  readonly tools: readonly string[];
  readonly pinned: boolean;
}

/** What {@link describeSkillPackages} answers: the packages in effect and every current diagnostic. */
export interface SkillPackagesReport {
  readonly packages: readonly SkillPackageReport[];
  /** Of the scan, of each package (those that could not load included) and of changes that did not load. */
  readonly diagnostics: readonly SkillDiagnostic[];
}

/**
 * The packages of `library` as they are on disk now (its files checked first): each with its trust,
 * read from the trust records in `stateDirectory`, and how its tools are offered; and its
 * diagnostics — what a console or a report shows.
 */
export async function describeSkillPackages(library: SkillLibrary, stateDirectory: string): Promise<SkillPackagesReport> {
  await library.refresh();
  const records = await readTrustRecords(stateDirectory);
  const packages = await Promise.all(
    library.packages.map(async (entry) => ({
      name: entry.name,
      description: entry.description,
      folder: entry.folder,
      scope: entry.root.scope,
      trust: await packageTrust(entry, records),
      state: entry.state,
      tools: [...entry.tools],
      pinned: entry.pinned,
    })),
  );
  return { packages, diagnostics: library.diagnostics.map((diagnostic) => ({ ...diagnostic })) };
}
