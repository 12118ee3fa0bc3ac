import type { ServiceContainer } from '@nexus/core';
import { defineSkill, type SkillContext, type SkillSpec, type ToolResult } from '@nexus/core';

/** The mark ghost tools' descriptions start with (seed 004). */
export const GHOST_MARK = '[GHOST]';

/** Runs a ghost's tool for real: loads its package, then calls the loaded tool. */
export type GhostRunner = (
  tool: string,
  args: Record<string, unknown>,
  context: SkillContext,
  services: ServiceContainer,
) => Promise<ToolResult>;

/**
 * A ghost tool (seed 004): a package's tool listed before the package is loaded, as
 * `[GHOST] <description>` with an open schema. Through a registry the call loads the package
 * first (the family's `refresh`), so the arguments are checked against the real schema; called
 * directly, it loads the package and runs the real tool, whose own checks then apply.
 */
export function ghostSkill(tool: string, description: string, run: GhostRunner): SkillSpec {
  return defineSkill<Record<string, unknown>>({
    name: tool,
    description: `${GHOST_MARK} ${description} (loads on first use; its parameters are checked then)`,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    minimumLevel: 'trusted',
    create: (services) => (args, context) => run(tool, args, context, services),
  });
}
