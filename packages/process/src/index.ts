export type { SandboxOptions } from './bubblewrap.js';
export type { CommandIsolation } from './command-isolation.js';
export { resolveCommandIsolation, resolveCommandSandbox } from './command-isolation.js';
export {
  clampTimeoutSeconds,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  timeoutParameter,
} from './command-timeout.js';
export type { ExecSettings } from './exec-settings.js';
export { EXEC_SANDBOX_MODES, parseExecSettings } from './exec-settings.js';
export { RUN_TAG_VARIABLE } from './process-tracker.js';
export type { WorkingDirectoryOptions } from './resolve-working-directory.js';
export { resolveWorkingDirectory } from './resolve-working-directory.js';
export type { RunOptions, RunResult } from './run-process.js';
export { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_RUN_TIMEOUT_MS, runProcess } from './run-process.js';
export type { SplitCommandOptions } from './split-command.js';
export { splitCommand } from './split-command.js';
export type { Service, ServiceOptions } from './start-service.js';
export { DEFAULT_SERVICE_KILL_GRACE_MS, startService } from './start-service.js';
export { formatRunOutput, RUN_RESULT_DATA_SCHEMA, runResultData, toolResultFromRun } from './tool-result-from-run.js';
