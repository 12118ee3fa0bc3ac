import type { SkillFamily } from '@nexus/core';
import { bashSafeSkill } from './skills/bash-safe.js';
import { runPythonSkill } from './skills/run-python.js';
import { shellUnsafeSkill } from './skills/shell-unsafe.js';

/** The execution family: `bash_safe`, `shell_UNSAFE` and `run_python` (all `trusted` and up). */
export const execSkills: SkillFamily = {
  name: 'exec',
  skills: [bashSafeSkill, shellUnsafeSkill, runPythonSkill],
};
