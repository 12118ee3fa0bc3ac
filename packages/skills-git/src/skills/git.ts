import { authorizePath, normalizePath } from '@nexus/core';
import { DEFAULT_TIMEOUT_SECONDS, resolveWorkingDirectory, runProcess } from '@nexus/process';
import {
  defineFilteredCommandSkill,
  type FilteredCommandArguments,
  type FilteredCommandContext,
  type PreparedCommand,
} from '@nexus/skills-exec/kit';
import { type ParsedGitCommand, parseGitArguments } from '../git-arguments.js';
import { rewriteSubcommandArguments } from '../git-arguments-rewrite.js';
import { gitCommandFilter } from '../git-command-filter.js';
import { ALWAYS_OVERRIDDEN, configArguments, READ_ONLY_OVERRIDDEN } from '../git-config-hardening.js';
import { gitEnvironment } from '../git-environment.js';
import { reviewGitOptions } from '../git-option-review.js';
import { GIT_OUTPUT_SCHEMA } from '../git-output-schema.js';
import { reviewRepository } from '../git-repository-review.js';
import { presentGitResult, structuredKind } from '../git-structured-output.js';

/** Arguments of the `git` skill: `command` (git's arguments, a leading `git` accepted) and an optional `cwd`. */
export type GitArguments = FilteredCommandArguments;

/** Time limit of a git command, in seconds. */
export const GIT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_SECONDS;
const HELPER_TIMEOUT_MS = 10_000;

async function prepareGit(context: FilteredCommandContext<ParsedGitCommand>): Promise<PreparedCommand> {
  const { invocation, level, readOnly, cwd, services, signal, confirm } = context;
  const { parsed } = invocation;
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
      directory = await resolveWorkingDirectory(services, 'git', normalizePath(option.value, directory), { access, confirm });
  }
  for (const { path, access: pathAccess } of named)
    await authorizePath(services, 'git', normalizePath(path, directory), { access: pathAccess, confirm });

  const hardening = ['--no-pager', ...configArguments([...ALWAYS_OVERRIDDEN, ...(readOnly ? READ_ONLY_OVERRIDDEN : [])])];
  const runGit = (args: readonly string[]) =>
    runProcess('git', [...hardening, ...userGlobals, ...args], { cwd, env, signal, timeoutMs: HELPER_TIMEOUT_MS });
  const overrides = await reviewRepository(runGit, (path) => authorizePath(services, 'git', path, { access, confirm }), readOnly);
  return { args: [...hardening, ...configArguments(overrides), ...userGlobals, ...subcommand, ...rest], env };
}

/**
 * The `git` skill (seed 000 §Git): a git command line run without a shell and filtered by
 * permission level — read-only commands at `sandboxed`, everything but the blocked patterns at
 * `trusted`, everything at `yolo`. Below yolo no option or repository setting can make git run
 * another program or reach outside the sandbox. `status`, `log` and branch listings come with
 * parsed `data`. The command line is parsed once; the filter, the hardening and the result all
 * work on that parsed form.
 */
export const gitSkill = defineFilteredCommandSkill({
  name: 'git',
  title: 'Git',
  outputSchema: GIT_OUTPUT_SCHEMA,
  description:
    'Run a git command (without a shell), e.g. `status`, `diff --stat`, `log -5`, `branch -a`, `add src/a.ts`, `commit -m "Fix parser"`. ' +
    'Allowed commands depend on the permission level: read-only commands always; writes at trusted, except destructive ones ' +
    '(reset --hard, push --force, clean -f, branch -D, rebase …), which need yolo. status, log and branch listings also return structured data.',
  commandDescription: 'git arguments, e.g. `log --oneline -10` (a leading `git` is accepted).',
  program: 'git',
  parse: parseGitArguments,
  filter: gitCommandFilter,
  prepare: prepareGit,
  present: (result, { invocation }) => presentGitResult(structuredKind(invocation.parsed), result, GIT_TIMEOUT_SECONDS),
  timeoutSeconds: GIT_TIMEOUT_SECONDS,
});
