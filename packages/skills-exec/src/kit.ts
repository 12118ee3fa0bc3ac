export type { CommandToRun, ExecutionArguments, ExecutionSkillDefinition } from './execution-skill.js';
export { defineExecutionSkill, requireString } from './execution-skill.js';
export type {
  BlockedPattern,
  CommandFilter,
  CommandInvocation,
  FilteredCommandArguments,
  FilteredCommandContext,
  FilteredCommandSkillDefinition,
  ParsedCommand,
  PreparedCommand,
} from './filtered-command-skill.js';
export { defineFilteredCommandSkill, findCommandRefusal, isReadOnlyInvocation } from './filtered-command-skill.js';
