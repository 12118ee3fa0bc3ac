import { defineExecutionSkill, type ExecutionArguments, requireString } from '../define-execution-skill.js';

declare module '@nexus/core' {
  interface Services {
    /** Interpreter `run_python` starts (default `python3`), e.g. `/opt/venv/bin/python`. */
    pythonExecutable: string;
  }
}

/** Interpreter `run_python` uses when no `pythonExecutable` service is registered. */
const DEFAULT_PYTHON_EXECUTABLE = 'python3';

/** Arguments of `run_python`. */
export interface RunPythonArguments extends ExecutionArguments {
  code: string;
}

/** `run_python`: runs Python code fed through stdin (`python3 -`), so no quoting limits apply. */
export const runPythonSkill = defineExecutionSkill<RunPythonArguments>({
  name: 'run_python',
  title: 'Run Python',
  description:
    'Run Python 3 code and return what it prints (stdout, stderr and the exit code). The code is passed as a script, so it may span many lines and use any quotes. ' +
    'It cannot read interactive input.',
  parameters: {
    type: 'object',
    properties: {
      code: { type: 'string', minLength: 1, description: 'Python source code, e.g. `import sys\\nprint(sys.version)`.' },
    },
    required: ['code'],
  },
  prepare: (args, services) => ({
    file: services.get('pythonExecutable') ?? DEFAULT_PYTHON_EXECUTABLE,
    args: ['-'],
    input: requireString(args, 'code'),
    env: { PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
  }),
  describe: (args) => `run Python code (${args.code.split('\n').length} line(s)): ${args.code.split('\n')[0]}`,
});
