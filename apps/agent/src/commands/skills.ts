import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { BrokenSkillPackage, LoadedSkillPackages, SkillPackage, SkillUsage } from '@nexus/skills-md';
import { type CommandLine, defineCommand, UsageError } from '../command.js';
import { confirmOnTerminal } from '../confirm-on-terminal.js';
import { createRegistry } from '../create-registry.js';
import { loadSkillPackagesFor, skillCommandIsolation } from '../families.js';
import { formatTable } from '../format-table.js';
import { COMMON } from '../help-sections.js';
import type { Io } from '../io.js';
import { resolveSettings, type Settings } from '../resolve-settings.js';
import { parseToolArguments } from '../tool-arguments.js';

const ACTIONS = ['list', 'check', 'trust', 'run', 'new'] as const;
type Action = (typeof ACTIONS)[number];

const OPTIONS = {
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  user: { type: 'boolean' },
  python: { type: 'boolean' },
  portable: { type: 'boolean' },
} as const;
type SkillsLine = CommandLine<typeof OPTIONS>;

type Listed = SkillPackage | BrokenSkillPackage;
const isLoaded = (entry: Listed): entry is SkillPackage => 'commands' in entry;

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** A path as short as it reads well: relative to the working directory inside it, `~/…` inside the home directory (the settings'). */
function shortPath(path: string, settings: Settings): string {
  const fromCwd = relative(settings.cwd, path);
  if (fromCwd !== '' && !fromCwd.startsWith('..') && !isAbsolute(fromCwd)) return fromCwd;
  const home = settings.skills.environment.HOME ?? homedir();
  return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

function trustCell(entry: Listed): string {
  if (!isLoaded(entry)) return '-';
  return { user: 'yes (user)', trusted: 'yes', untrusted: 'no', changed: 'no (changed)' }[entry.trust];
}

function commandsCell(entry: Listed): string {
  if (!isLoaded(entry)) return '-';
  // disable-model-invocation: only a person runs them (nexus skills run).
  const tools = entry.commands.map((command) => (entry.hiddenFromModel ? `${command.tool} (people only)` : command.tool));
  const unlisted = entry.scriptCommands === 'not inspected' ? ['scripts not listed'] : [];
  return [...tools, ...unlisted].join(', ') || '-';
}

function usageCell(usage: SkillUsage | undefined): string {
  return usage ? `${usage.count} (last ${usage.last_used.slice(0, 10)})` : '-';
}

function problemsCell(entry: Listed): string {
  const counts = (['error', 'warning'] as const)
    .map((severity) => [severity, entry.diagnostics.filter((diagnostic) => diagnostic.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}${count > 1 ? 's' : ''}`);
  return counts.join(', ') || '-';
}

/** Where a package came from: the default folder by name, else its configured root. */
function rootCell(entry: Listed, shadowed: boolean, settings: Settings): string {
  const where = entry.root.source ?? shortPath(entry.root.path, settings);
  return `${where} (${entry.root.scope}${shadowed ? ', shadowed' : ''})`;
}

async function listAction(loaded: LoadedSkillPackages, settings: Settings, line: SkillsLine, io: Io): Promise<number> {
  const { readSkillUsage } = await import('@nexus/skills-md');
  const usage = await readSkillUsage(loaded.stateDirectory);
  const entries: Listed[] = [...loaded.packages, ...loaded.shadowed, ...loaded.broken];
  const name = (entry: Listed) => entry.name ?? entry.folderName;
  const isShadowed = (entry: Listed) => loaded.shadowed.includes(entry as SkillPackage);
  // What a package in effect hides: the packages of its name in later roots.
  const shadows = (entry: Listed) =>
    loaded.packages.includes(entry as SkillPackage) ? loaded.shadowed.filter((hidden) => hidden.name === entry.name) : [];
  if (line.json) {
    const json = entries.map((entry) => ({
      name: name(entry),
      folder: entry.folder,
      root: entry.root,
      source: entry.root.source ?? null,
      shadows: shadows(entry).map((hidden) => hidden.folder),
      hiddenFromModel: isLoaded(entry) && entry.hiddenFromModel,
      loaded: isLoaded(entry) && loaded.packages.includes(entry),
      trust: isLoaded(entry) ? entry.trust : null,
      commands: isLoaded(entry) ? entry.commands.map((command) => command.tool) : [],
      usage: usage[name(entry)] ?? null,
      problems: entry.diagnostics,
    }));
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    io.stdout.write(`No skill packages. Roots looked at:\n${loaded.roots.map((root) => `  ${root.path} (${root.scope})`).join('\n')}\n`);
    io.stdout.write('`nexus skills new <name>` creates one.\n');
    return 0;
  }
  const rows = entries.map((entry) => [
    name(entry),
    shortPath(entry.folder, settings),
    rootCell(entry, isShadowed(entry), settings),
    shadows(entry)
      .map((hidden) => shortPath(hidden.folder, settings))
      .join(', ') || '-',
    trustCell(entry),
    commandsCell(entry),
    usageCell(usage[name(entry)]),
    problemsCell(entry),
  ]);
  io.stdout.write(`${formatTable(['NAME', 'FOLDER', 'ROOT', 'SHADOWS', 'TRUSTED', 'COMMANDS', 'USAGE', 'PROBLEMS'], rows)}\n`);
  if (loaded.broken.length > 0) io.stdout.write(`\n${loaded.broken.length} could not load; \`nexus skills check\` says why.\n`);
  return 0;
}

async function checkAction(settings: Settings, line: SkillsLine, io: Io): Promise<number> {
  const [path, extra] = line.positionals.slice(1);
  if (extra !== undefined) throw new UsageError(`\`nexus skills check\` takes at most one path, got "${extra}" too.`);
  const { formatDiagnostic, loadSkillPackages } = await import('@nexus/skills-md');
  const loaded =
    path === undefined
      ? await loadSkillPackagesFor(settings)
      : await loadSkillPackages({
          cwd: settings.cwd,
          ...skillCommandIsolation(settings),
          env: settings.skills.environment,
          scan: [{ path: resolve(settings.cwd, path), scope: 'project' }],
        });
  const checked = loaded.packages.length + loaded.shadowed.length + loaded.broken.length;
  if (path !== undefined && checked === 0)
    throw new UsageError(`No SKILL.md found in or below "${path}" (a package folder, or a folder of packages).`);
  const counts = { error: 0, warning: 0, note: 0 };
  for (const diagnostic of loaded.diagnostics) counts[diagnostic.severity]++;
  // --portable: whether each package loads in every client as it is (a broken one does not).
  const portability = [...loaded.packages, ...loaded.shadowed, ...loaded.broken].map((entry) => {
    const problems = isLoaded(entry) ? [...entry.portability] : ['it does not load (see the errors above)'];
    return { name: entry.name ?? entry.folderName, folder: entry.folder, portable: problems.length === 0, problems };
  });
  if (line.json)
    io.stdout.write(`${JSON.stringify(line.portable ? { diagnostics: loaded.diagnostics, portability } : loaded.diagnostics, null, 2)}\n`);
  else {
    for (const diagnostic of loaded.diagnostics) io.stdout.write(`${formatDiagnostic(diagnostic)}\n`);
    io.stdout.write(
      `${checked} package${checked === 1 ? '' : 's'} checked: ${counts.error} error${counts.error === 1 ? '' : 's'}, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}, ${counts.note} note${counts.note === 1 ? '' : 's'}.\n`,
    );
    if (line.portable)
      for (const entry of portability)
        io.stdout.write(`${entry.name}: ${entry.portable ? 'portable' : `not portable: ${entry.problems.join('; ')}`}\n`);
  }
  return counts.error > 0 || (line.portable && portability.some((entry) => !entry.portable)) ? 1 : 0;
}

async function trustAction(loaded: LoadedSkillPackages, line: SkillsLine, io: Io): Promise<number> {
  const words = line.positionals.slice(1);
  if (line.all === words.length > 0) throw new UsageError('Name the packages to trust, or give --all: nexus skills trust <name> | --all.');
  const targets = line.all ? loaded.packages.filter((entry) => entry.root.scope === 'project') : words.map((word) => loaded.resolve(word));
  if (targets.length === 0) {
    io.stdout.write('No project skill packages to trust.\n');
    return 0;
  }
  const { recordTrust } = await import('@nexus/skills-md');
  for (const target of targets) {
    const name = target.name ?? target.folderName;
    if (target.root.scope === 'user') {
      io.stdout.write(`${name}: a user package (${target.folder}), trusted already.\n`);
      continue;
    }
    const hash = await recordTrust(loaded.stateDirectory, target.folder, name);
    const commands = isLoaded(target) ? target.commands.map((command) => command.tool).join(', ') : '';
    io.stdout.write(
      `Trusted ${name} (${target.folder}) as it is now (sha256 ${hash.slice(0, 12)}…); any change to its files untrusts it.\n`,
    );
    if (commands) io.stdout.write(`  commands: ${commands}\n`);
    if (isLoaded(target) && target.scriptCommands === 'not inspected')
      io.stdout.write('  its script commands are listed from the next run on.\n');
  }
  return 0;
}

async function runAction(settings: Settings, line: SkillsLine, io: Io): Promise<number> {
  const [reference, ...words] = line.positionals.slice(1);
  if (!reference) throw new UsageError('Missing the skill: nexus skills run <name>[.<command>] [name=value ...].');
  const args = parseToolArguments(words);
  // A person runs it: packages the model may not invoke (disable-model-invocation) are offered too.
  const skillSettings: Settings = { ...settings, families: ['skills'], skills: { ...settings.skills, invokedBy: 'person' } };
  await using registry = await createRegistry(skillSettings, io.stdin.isTTY ? confirmOnTerminal(io.stdin, io.stderr) : undefined);
  const loaded = await loadSkillPackagesFor(skillSettings);
  const controller = new AbortController();
  void io.interrupted.then(() => controller.abort(new Error('Interrupted.')));
  const result = await loaded.call(registry, reference, args, { signal: controller.signal });
  const { flushSkillUsage } = await import('@nexus/skills-md');
  await flushSkillUsage();
  if (line.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (result.success) io.stdout.write(withNewline(result.output));
  else io.stderr.write(withNewline(result.error));
  return result.success ? 0 : 1;
}

async function newAction(settings: Settings, line: SkillsLine, io: Io): Promise<number> {
  const [name, extra] = line.positionals.slice(1);
  if (!name || extra !== undefined) throw new UsageError('Expected one name: nexus skills new <name> [--user] [--python].');
  const { createSkillPackage, defaultConfigDirectory } = await import('@nexus/skills-md');
  const parent = line.user ? join(defaultConfigDirectory(settings.skills.environment), 'skills') : join(settings.cwd, '.nexus', 'skills');
  const language = line.python ? 'python' : 'node';
  const folder = await createSkillPackage(parent, name, { language }).catch((error: Error) => {
    throw new UsageError(error.message.replace(/\.$/, ''));
  });
  const module = line.python ? 'scripts/commands.py' : 'scripts/commands.mjs';
  io.stdout.write(`Created ${folder}/\n  SKILL.md  README.md  ${line.python ? 'scripts/__init__.py  ' : ''}${module}\n`);
  const trust = line.user ? '' : `  nexus skills trust ${name}\n`;
  io.stdout.write(
    `Next:\n  edit SKILL.md and ${module}\n  nexus skills check ${shortPath(folder, settings)}\n${trust}  nexus skills run ${name}.hello who=you --preset trusted\n`,
  );
  return 0;
}

function parseAction(word: string | undefined): Action {
  if (word === undefined) throw new UsageError(`Missing the action: nexus skills <${ACTIONS.join('|')}>.`);
  if (!(ACTIONS as readonly string[]).includes(word))
    throw new UsageError(`Unknown action "${word}"; expected one of: ${ACTIONS.join(', ')}.`);
  return word as Action;
}

async function run(line: SkillsLine, io: Io): Promise<number> {
  const action = parseAction(line.positionals[0]);
  if (line.all && action !== 'trust') throw new UsageError('--all only applies to `nexus skills trust`.');
  if (line.user && action !== 'new') throw new UsageError('--user only applies to `nexus skills new`.');
  if (line.python && action !== 'new') throw new UsageError('--python only applies to `nexus skills new`.');
  if (line.portable && action !== 'check') throw new UsageError('--portable only applies to `nexus skills check`.');
  if (line.json && (action === 'trust' || action === 'new')) throw new UsageError(`--json does not apply to \`nexus skills ${action}\`.`);
  const settings = await resolveSettings(line.common, io);
  switch (action) {
    case 'list':
      if (line.positionals.length > 1) throw new UsageError(`\`nexus skills list\` takes no arguments, got "${line.positionals[1]}".`);
      return listAction(await loadSkillPackagesFor(settings), settings, line, io);
    case 'check':
      return checkAction(settings, line, io);
    case 'trust':
      return trustAction(await loadSkillPackagesFor(settings), line, io);
    case 'run':
      return runAction(settings, line, io);
    case 'new':
      return newAction(settings, line, io);
  }
}

/**
 * `nexus skills list | check [path] | trust <name>|--all | run <name>[.<command>] [args] | new <name>`:
 * SKILL.md skill packages (`@nexus/skills-md`). `check` exits 1 when a package has an error, `run`
 * when the command did not succeed.
 */
export const skillsCommand = defineCommand({
  name: 'skills',
  summary: [{ usage: 'skills <action>', text: 'SKILL.md skill packages: list, check, trust, run, new' }],
  options: OPTIONS,
  help: () => `Usage: nexus skills <action> [arguments] [options]

SKILL.md skill packages: folders with a SKILL.md (YAML frontmatter, then instructions for
the model), found in <cwd>/.nexus/skills, <cwd>/.agents/skills, <cwd>/.claude/skills,
<cwd>/.github/skills (the project's), then $XDG_CONFIG_HOME/nexus/skills, ~/.agents/skills,
~/.config/agents/skills, ~/.claude/skills, ~/.copilot/skills and the config's skills.roots
(yours): the skills Claude Code, Copilot, Codex and others keep. An earlier folder's package
shadows a later one of the same name. --families ...,skills offers their commands as tools,
and the skill tool for their instructions, to MCP clients and agents.

Actions
  list                List the packages: name, folder, root (which folder it came from), the
                      packages it shadows, trusted, commands, usage, problems
  check [path]        Check every package (or the package or folder at path): problems with
                      file:line:col, portability notes and the seed 004 checklist. Exit 1 on errors.
                      --portable: also say of each package whether every client loads its
                      SKILL.md as it is (Nexus's keys belong in agents/nexus.yaml); exit 1 if not
  trust <name>|--all  Trust a project package as it is now: its commands are offered until a file
                      of it changes. Your own packages are always trusted
  run <name>[.<command>] [name=value ...]
                      Run a package's command (arguments as in nexus call). Commands need
                      --preset trusted or higher
  new <name>          Create <cwd>/.nexus/skills/<name>/ from a template (--user: in your skills folder;
                      --python: Omni-style scripts/commands.py with @skill_script functions)

Options
  --json             list and check: print JSON; run: the whole result
  --all              trust: every project package
  --user             new: create the package in $XDG_CONFIG_HOME/nexus/skills
  --python           new: Python commands (scripts/commands.py) instead of scripts/commands.mjs
  --portable         check: say whether each package is portable

A package's commands are typed in SKILL.md (command, parameters, commands), or in
agents/nexus.yaml beside it, which keeps SKILL.md portable; scripts/commands.mjs exports
commands, scripts/commands.py has @skill_script functions (seed 004's Omni packages). A skill's
allowed-tools limits the agent to those tools from its skill call on; disable-model-invocation:
true keeps it from the model, for nexus skills run only.

Commands run without a shell, in the working directory, with a sanitised environment, for at
most 60 s. Trust and usage records are kept in $XDG_STATE_HOME/nexus (default ~/.local/state/nexus).
Config: "skills": { "roots": ["~/my-skills"], "outputDirectory": "mybox/output",
"folders": { "~/.claude/skills": false } } (roots from your own config file only; folders
turns default folders off — a project's config file may only turn them off).

${COMMON}`,
  run,
});
