export {
  clampTimeoutSeconds,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  timeoutParameter,
} from './command-timeout.js';
export { execSkills } from './exec-skills.js';
export type { CommandToRun, ExecutionArguments, ExecutionSkillDefinition } from './execution-skill.js';
export { defineExecutionSkill, requireString } from './execution-skill.js';
export type {
  BlockedPattern,
  CommandFilter,
  CommandInvocation,
  FilteredCommandContext,
  FilteredCommandSkillDefinition,
  PreparedCommand,
} from './filtered-command-skill.js';
export { defineFilteredCommandSkill, findCommandRefusal, isReadOnlyInvocation } from './filtered-command-skill.js';
export { RUN_TAG_VARIABLE } from './process-tracker.js';
export { resolveWorkingDirectory } from './resolve-working-directory.js';
export type { RunOptions, RunResult } from './run-process.js';
export { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_RUN_TIMEOUT_MS, runProcess } from './run-process.js';
export type { BashSafeArguments } from './skills/bash-safe.js';
export { bashSafeSkill } from './skills/bash-safe.js';
export type { RunPythonArguments } from './skills/run-python.js';
export { DEFAULT_PYTHON_EXECUTABLE, runPythonSkill } from './skills/run-python.js';
export type { ShellUnsafeArguments } from './skills/shell-unsafe.js';
export { shellUnsafeSkill } from './skills/shell-unsafe.js';
export type { SplitCommandOptions } from './split-command.js';
export { splitCommand } from './split-command.js';
export { formatRunOutput, runResultData, toolResultFromRun } from './tool-result-from-run.js';
