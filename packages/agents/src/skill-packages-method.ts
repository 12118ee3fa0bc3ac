import { expectGlobalWithoutParams } from './server-method-params.js';

/**
 * The server's skill-package index (`ServeAgentsOptions.skillPackages`): a JSON report of the
 * SKILL.md packages its agents are offered — `@nexus/skills-md`'s `describeSkillPackages` of the
 * library the skills family serves.
 */
export type SkillPackageIndex = () => Promise<object>;

/**
 * The global method `list_skill_packages` (docs/console.md): `{ enabled: true, …the index's report }`
 * read afresh, or `{ enabled: false, packages: [], diagnostics: [] }` when the server serves no
 * skill packages. Only the token holder reaches it: the server answers it itself, so an agent's
 * `nexus_*` call (which goes to the runtime) does not find it.
 */
export async function listSkillPackages(
  index: SkillPackageIndex | undefined,
  params: unknown,
  agentId: string | undefined,
): Promise<object> {
  expectGlobalWithoutParams('list_skill_packages', params, agentId);
  return index ? { enabled: true, ...(await index()) } : { enabled: false, packages: [], diagnostics: [] };
}
