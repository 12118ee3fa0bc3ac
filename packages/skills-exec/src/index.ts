export { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_RUN_TIMEOUT_MS, runProcess } from './run-process.js';
export type { RunOptions, RunResult } from './run-process.js';
export { RUN_TAG_VARIABLE } from './process-tracker.js';
export { resolveWorkingDirectory } from './resolve-working-directory.js';
