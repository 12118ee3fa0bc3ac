import type { SkillDiagnostic } from './skill-diagnostic.js';
import { diagnosticAt, FILE_START } from './skill-diagnostic.js';
import type { SkillRoot } from './skill-locations.js';
import type { BrokenSkillPackage } from './skill-package.js';

/** What {@link settleNames} needs of a package. */
export interface NamedPackage {
  readonly name: string;
  readonly folder: string;
  readonly folderName: string;
  readonly root: SkillRoot;
  readonly skillFile: string;
  readonly diagnostics: readonly SkillDiagnostic[];
}

/**
 * Splits packages that loaded by name: the one in effect (the earliest root's), both refused (as
 * broken, with an error) when one root has two of a name, and the rest shadowed (with a warning
 * naming both folders). In effect, in root order then by name.
 */
export function settleNames<P extends NamedPackage>(candidates: readonly P[], roots: readonly SkillRoot[]) {
  const packages: P[] = [];
  const broken: BrokenSkillPackage[] = [];
  const shadowed: P[] = [];
  const diagnostics: SkillDiagnostic[] = [];
  const byName = new Map<string, P[]>();
  for (const candidate of candidates) byName.set(candidate.name, [...(byName.get(candidate.name) ?? []), candidate]);
  for (const [name, group] of byName) {
    const rank = (skillPackage: P) => roots.indexOf(skillPackage.root);
    const first = Math.min(...group.map(rank));
    const leaders = group.filter((skillPackage) => rank(skillPackage) === first);
    if (leaders.length > 1) {
      const folders = leaders.map((skillPackage) => skillPackage.folder).join(' and ');
      for (const leader of leaders) {
        const diagnostic = diagnosticAt(
          'error',
          leader.skillFile,
          FILE_START,
          `two skill packages are named "${name}": ${folders}; neither is loaded`,
        );
        broken.push({
          name,
          folder: leader.folder,
          folderName: leader.folderName,
          root: leader.root,
          skillFile: leader.skillFile,
          diagnostics: [diagnostic, ...leader.diagnostics],
        });
        diagnostics.push(diagnostic);
      }
      continue;
    }
    const [leader] = leaders as [P];
    packages.push(leader);
    for (const hidden of group.filter((skillPackage) => skillPackage !== leader)) {
      shadowed.push(hidden);
      const which = leader.root.scope === 'project' && hidden.root.scope === 'user' ? 'project skill' : 'skill';
      diagnostics.push(
        diagnosticAt(
          'warning',
          leader.skillFile,
          FILE_START,
          `this ${which} "${name}" (${leader.folder}) shadows the one in ${hidden.folder}`,
        ),
      );
    }
  }
  const order = (item: { root: SkillRoot; folder: string }) => roots.indexOf(item.root);
  packages.sort((a, b) => order(a) - order(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { packages, broken, shadowed, diagnostics };
}
