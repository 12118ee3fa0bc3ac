export { execSkills } from './exec-family.js';
export type { BashSafeArguments } from './skills/bash-safe.js';
export { bashSafeSkill } from './skills/bash-safe.js';
export type { RunPythonArguments } from './skills/run-python.js';
export { runPythonSkill } from './skills/run-python.js';
export type { ShellUnsafeArguments } from './skills/shell-unsafe.js';
export { shellUnsafeSkill } from './skills/shell-unsafe.js';
