export type { CommandToRun, ExecutionArguments, ExecutionSkillDefinition } from './define-execution-skill.js';
export { defineExecutionSkill, requireString } from './define-execution-skill.js';
export type {
  BlockedPattern,
  CommandFilter,
  CommandInvocation,
  FilteredCommandArguments,
  FilteredCommandContext,
  FilteredCommandSkillDefinition,
  ParsedCommand,
  PreparedCommand,
} from './define-filtered-command-skill.js';
export { defineFilteredCommandSkill, findCommandRefusal, isReadOnlyInvocation } from './define-filtered-command-skill.js';
