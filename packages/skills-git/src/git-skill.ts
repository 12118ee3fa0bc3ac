import { authorizePath, normalizePath, type SkillFamily } from '@nexus/core';
import {
  DEFAULT_TIMEOUT_SECONDS,
  defineFilteredCommandSkill,
  type FilteredCommandContext,
  type PreparedCommand,
  resolveWorkingDirectory,
  runProcess,
} from '@nexus/skills-exec';
import { parseGitArguments } from './git-arguments.js';
import { rewriteSubcommandArguments } from './git-arguments-rewrite.js';
import { gitCommandFilter } from './git-command-filter.js';
import { ALWAYS_OVERRIDDEN, configArguments, READ_ONLY_OVERRIDDEN } from './git-config-hardening.js';
import { gitEnvironment } from './git-environment.js';
import { reviewGitOptions } from './git-option-review.js';
import { reviewRepository } from './git-repository-review.js';
import { presentGitResult, structuredKind } from './git-structured-output.js';

/** Time limit of a git command, in seconds. */
export const GIT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_SECONDS;
const HELPER_TIMEOUT_MS = 10_000;

async function prepareGit(context: FilteredCommandContext): Promise<PreparedCommand> {
  const { invocation, level, readOnly, cwd, services, signal } = context;
  const parsed = parseGitArguments(invocation.argv);
  const env = gitEnvironment(level, readOnly);
  const subcommand = parsed.subcommand === undefined ? [] : [parsed.subcommand];
  const userGlobals = parsed.globals.flatMap((option) => option.words);
  const rest = rewriteSubcommandArguments(parsed, level, readOnly, structuredKind(parsed));
  if (level === 'yolo') return { args: [...userGlobals, ...subcommand, ...rest], env };

  const access = readOnly ? 'read' : 'write';
  const named = reviewGitOptions(parsed, readOnly);
  let directory = cwd;
  for (const option of parsed.globals) {
    if (option.name === '-C' && option.value !== undefined)
      directory = await resolveWorkingDirectory(services, 'git', normalizePath(option.value, directory), access);
  }
  for (const { path, access: pathAccess } of named)
    await authorizePath(services, 'git', normalizePath(path, directory), { access: pathAccess });

  const hardening = ['--no-pager', ...configArguments([...ALWAYS_OVERRIDDEN, ...(readOnly ? READ_ONLY_OVERRIDDEN : [])])];
  const runGit = (args: readonly string[]) =>
    runProcess('git', [...hardening, ...userGlobals, ...args], { cwd, env, signal, timeoutMs: HELPER_TIMEOUT_MS });
  const overrides = await reviewRepository(runGit, (path) => authorizePath(services, 'git', path, { access }), readOnly);
  return { args: [...hardening, ...configArguments(overrides), ...userGlobals, ...subcommand, ...rest], env };
}

/**
 * The `git` skill (seed 000 §Git): a git command line run without a shell and filtered by
 * permission level — read-only commands at `sandboxed`, everything but the blocked patterns at
 * `trusted`, everything at `yolo`. Below yolo no option or repository setting can make git run
 * another program or reach outside the sandbox. `status`, `log` and branch listings come with
 * parsed `data`.
 */
export const gitSkill = defineFilteredCommandSkill({
  name: 'git',
  description:
    'Run a git command (without a shell), e.g. `status`, `diff --stat`, `log -5`, `branch -a`, `add src/a.ts`, `commit -m "Fix parser"`. ' +
    'Allowed commands depend on the permission level: read-only commands always; writes at trusted, except destructive ones ' +
    '(reset --hard, push --force, clean -f, branch -D, rebase …), which need yolo. status, log and branch listings also return structured data.',
  commandDescription: 'git arguments, e.g. `log --oneline -10` (a leading `git` is accepted).',
  program: 'git',
  filter: gitCommandFilter,
  findSubcommand: (argv) => parseGitArguments(argv).subcommand,
  prepare: prepareGit,
  present: (result, context) => presentGitResult(structuredKind(parseGitArguments(context.invocation.argv)), result, GIT_TIMEOUT_SECONDS),
  timeoutSeconds: GIT_TIMEOUT_SECONDS,
});

/** The git family: the `git` skill. */
export const gitSkills: SkillFamily = { name: 'git', skills: [gitSkill] };
