import { splitCommand } from '@nexus/process';
import { defineExecutionSkill, type ExecutionArguments, requireString } from '../define-execution-skill.js';

/** Arguments of `bash_safe`. */
export interface BashSafeArguments extends ExecutionArguments {
  command: string;
}

/**
 * `bash_safe`: runs one program with arguments, split like a POSIX shell would split them but
 * without a shell — operators, redirections, substitutions and expansions are refused.
 * It asks for confirmation at `trusted` like the other execution skills: "safe" means free of
 * shell injection, not harmless — the program itself can be anything (`rm -rf ~`).
 */
export const bashSafeSkill = defineExecutionSkill<BashSafeArguments>({
  name: 'bash_safe',
  title: 'Bash (safe)',
  description:
    'Run a single program with arguments, without a shell. The command is split like a POSIX shell splits words (single and double quotes, backslash escapes), ' +
    'but pipes, redirections, `;`, `&&`, `||`, `&`, subshells, `$(…)`, backticks and `$VAR` expansion are refused, and globs and `~` are not expanded. ' +
    'Returns stdout, stderr and the exit code. Use shell_UNSAFE when shell features are really needed.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'Program and arguments, e.g. `ls -la src` or `grep -rn "TODO: fix" lib`.' },
    },
    required: ['command'],
  },
  prepare(args) {
    const [file, ...argv] = splitCommand(requireString(args, 'command'), { hint: 'Use shell_UNSAFE for shell features.' }) as [
      string,
      ...string[],
    ];
    return { file, args: argv };
  },
  describe: (args) => `run: ${args.command}`,
});
