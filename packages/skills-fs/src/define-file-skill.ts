import { defineSkill, type SkillContext, type SkillMetadata, type SkillSpec, type ToolResult } from '@nexus/core';
import { FileSandbox } from './file-sandbox.js';

/** The body of a file skill: one call's arguments, its {@link FileSandbox}, and its context (`signal`, `onProgress`, `confirm`). */
export type FileSkillHandler<Args> = (args: Args, files: FileSandbox, context: SkillContext) => Promise<ToolResult> | ToolResult;

/** What {@link defineFileSkill} takes: a skill's name and metadata, and its body. */
export interface FileSkillDefinition<Args> extends SkillMetadata {
  name: string;
  run: FileSkillHandler<Args>;
}

/**
 * Defines a file skill: like `defineSkill`, with each call run in a {@link FileSandbox} of its
 * own, for the skill's name (so per-tool roots apply) and the call's `confirm` (so a write outside
 * the working directory asks whoever made this call).
 */
export function defineFileSkill<Args>(definition: FileSkillDefinition<Args>): SkillSpec {
  const { run, ...metadata } = definition;
  return defineSkill<Args>({
    ...metadata,
    create: (services) => (args, context) => run(args, new FileSandbox(services, metadata.name, context.confirm), context),
  });
}
