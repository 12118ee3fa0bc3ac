import { defineExecutionSkill, type ExecutionArguments, requireString } from '../define-execution-skill.js';

/** Arguments of `shell_UNSAFE`. */
export interface ShellUnsafeArguments extends ExecutionArguments {
  command: string;
}

/** `shell_UNSAFE`: runs a command line through `bash -c`, with every shell feature (and every injection risk). */
export const shellUnsafeSkill = defineExecutionSkill<ShellUnsafeArguments>({
  name: 'shell_UNSAFE',
  title: 'Shell (unsafe)',
  description:
    'Run a command line in bash (`bash -c`): pipes, redirections, `&&`, variables and globs all work. ' +
    'Unsafe by design: anything in the command is executed. Prefer bash_safe when no shell feature is needed. Returns stdout, stderr and the exit code.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'Shell command line, e.g. `ls src | wc -l`.' },
    },
    required: ['command'],
  },
  prepare: (args) => ({ file: 'bash', args: ['-c', requireString(args, 'command')] }),
  describe: (args) => `run in a shell: ${args.command}`,
});
