import { existsSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin, NexusError, type ServiceContainer } from '@nexus/core';
import { mapAllowedTools } from './allowed-tools.js';
import { type CommandTemplate, CommandTemplateError, compileCommandTemplate } from './command-template.js';
import { type PackageLocation, SKILL_FILE_NAME } from './discover-skill-packages.js';
import { currentStamp } from './file-stamp.js';
import { type CommandCategory, MAX_COMMAND_SECONDS, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, PORTABLE_KEYS } from './manifest-limits.js';
import { type ManifestSource, readManifestSource } from './manifest-source.js';
import { PYTHON_COMMANDS_FILE, SIDE_FILE } from './package-files.js';
import { hashSkillPackage } from './package-hash.js';
import { type PackageRunOptions, packageRunOptions } from './package-run-options.js';
import { portableMetadata } from './portable-metadata.js';
import { listPythonCommands } from './python-commands.js';
import { readSkillFile, type SkillFile } from './read-skill-file.js';
import { modulePosition, runScriptHost, SCRIPT_COMMANDS_FILE, type ScriptRunOptions } from './script-commands.js';
import { diagnosticAt, FILE_START, type SkillDiagnostic } from './skill-diagnostic.js';
import { SkillFileError } from './skill-file-error.js';
import {
  type CommandDefinition,
  type ParameterDefinition,
  type SkillManifest,
  scriptCommandSchema,
  skillManifestSchema,
} from './skill-manifest.js';
import type { BrokenSkillPackage, PackageCommand, SkillPackage } from './skill-package.js';
import { commandToolName } from './tool-names.js';
import { packageTrust, type TrustRecord } from './trust-records.js';

const PORTABLE_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The name of a package's single `command`. */
export const SINGLE_COMMAND_NAME = 'run';
/** How long listing a package's script commands may take. */
const SCRIPT_LIST_TIMEOUT_MS = 15_000;

/** What loading one package needs besides its location. */
export interface PackageLoadContext {
  /** The trust records, by real folder path. */
  readonly trustRecords: Readonly<Record<string, TrustRecord>>;
  /**
   * The services the package's commands run with (working directory, `exec` settings, permission
   * policy): script commands are listed in the sandbox they decide, with nothing writable.
   */
  readonly services: ServiceContainer;
  /** Cap of each of stdout and stderr of a listing, in bytes. */
  readonly maxOutputBytes: number;
  /** Whether trusted packages' script commands are listed (which runs their module). */
  readonly listScriptCommands: boolean;
}

type Collected = { errors: SkillDiagnostic[]; others: SkillDiagnostic[] };

function schemaDiagnostics(
  source: ManifestSource,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): SkillDiagnostic[] {
  return issues.map((issue) => {
    const where = issue.path.length === 0 ? '' : `\`${issue.path.map(String).join('.')}\`: `;
    return diagnosticAt('error', ...source.at(issue.path), `${where}${issue.message}`);
  });
}

/**
 * The package's name, and the ways its `SKILL.md` is not portable (an empty list: every client
 * loads it as it is), each also a warning or note.
 */
function checkIdentity(
  source: ManifestSource,
  manifest: SkillManifest,
  location: PackageLocation,
  collected: Collected,
): { name: string; portability: string[] } {
  const name = manifest.name ?? location.folderName;
  const portability: string[] = [];
  const warn = (path: string[], message: string) => {
    portability.push(message);
    collected.others.push(diagnosticAt('warning', ...source.at(path), message));
  };
  if (manifest.name === undefined) warn([], `no \`name\`; the folder name "${name}" is used (other clients require a name)`);
  else if (manifest.name !== location.folderName)
    warn(['name'], `the name "${manifest.name}" differs from the folder name "${location.folderName}"`);
  if (name.length > MAX_NAME_LENGTH) warn(['name'], `the name is ${name.length} characters; at most ${MAX_NAME_LENGTH} are portable`);
  else if (manifest.name !== undefined && !PORTABLE_NAME.test(name))
    warn(['name'], 'portable names are lowercase letters, digits and single hyphens');
  if (manifest.description.length > MAX_DESCRIPTION_LENGTH)
    warn(['description'], `the description is ${manifest.description.length} characters; at most ${MAX_DESCRIPTION_LENGTH} are portable`);
  const unportable = Object.keys(source.frontmatter).filter((key) => !PORTABLE_KEYS.has(key) && !source.sideKeys.has(key));
  if (unportable.length > 0) {
    const keys = unportable.map((key) => `\`${key}\``).join(', ');
    portability.push(
      `SKILL.md has the key${unportable.length > 1 ? 's' : ''} ${keys} (move ${unportable.length > 1 ? 'them' : 'it'} to ${SIDE_FILE})`,
    );
    collected.others.push(
      diagnosticAt(
        'note',
        ...source.at([unportable[0] as string]),
        `not portable: other clients reject the key${unportable.length > 1 ? 's' : ''} ${keys}`,
      ),
    );
  }
  return { name, portability };
}

/** Entries of `allowed-tools` that map to no Nexus tool: the skill tool's narrowing leaves them out. */
function checkAllowedTools(source: ManifestSource, manifest: SkillManifest, collected: Collected): void {
  for (const entry of mapAllowedTools(manifest['allowed-tools']).unmapped)
    collected.others.push(
      diagnosticAt(
        'warning',
        ...source.at(['allowed-tools']),
        `\`allowed-tools\`: \`${entry}\` maps to no Nexus tool, so it is not available while the skill is followed`,
      ),
    );
}

/** Names of files seed 004 deprecated. */
const DEPRECATED_FILES = ['manifest.json', 'tools.py', 'prompts.md'];

/** seed 004's checklist: a README.md for people, a scripts/ folder, none of the deprecated files. */
function checklist(location: PackageLocation, collected: Collected): void {
  const at = (name: string) => join(location.folder, name);
  if (!location.entries.includes('README.md'))
    collected.others.push(
      diagnosticAt('warning', at('README.md'), FILE_START, 'no README.md: the package has no documentation for people'),
    );
  if (!location.entries.includes('scripts'))
    collected.others.push(
      diagnosticAt('note', at('scripts'), FILE_START, 'no scripts/ folder (seed 004 keeps command implementations there)'),
    );
  for (const name of DEPRECATED_FILES.filter((file) => location.entries.includes(file)))
    collected.others.push(
      diagnosticAt('warning', at(name), FILE_START, `${name} is deprecated (seed 004): the frontmatter and scripts/ replace it`),
    );
}

function commandSeconds(timeout: number | undefined, warn: (message: string) => void): number {
  if (timeout === undefined) return MAX_COMMAND_SECONDS;
  if (timeout > MAX_COMMAND_SECONDS)
    warn(`\`timeout\` ${timeout} s is above the ${MAX_COMMAND_SECONDS} s ceiling; ${MAX_COMMAND_SECONDS} s applies`);
  return Math.min(timeout, MAX_COMMAND_SECONDS);
}

function templateCommand(
  source: ManifestSource,
  location: PackageLocation,
  name: string,
  command: string | undefined,
  definition: Pick<CommandDefinition, 'command' | 'parameters' | 'timeout' | 'category' | 'description'> & { category: CommandCategory },
  collected: Collected,
): PackageCommand | undefined {
  const path = command === undefined ? [] : ['commands', command];
  let template: CommandTemplate;
  try {
    template = compileCommandTemplate(definition.command, location.folder, definition.parameters);
  } catch (error) {
    if (!(error instanceof CommandTemplateError)) throw error;
    collected.errors.push(diagnosticAt('error', ...source.at([...path, 'command']), error.message));
    return undefined;
  }
  for (const parameter of Object.keys(definition.parameters)) {
    if (!template.parameters.has(parameter))
      collected.others.push(
        diagnosticAt(
          'warning',
          ...source.at([...path, 'parameters', parameter]),
          `the parameter \`${parameter}\` is not used by the template`,
        ),
      );
  }
  const timeoutSeconds = commandSeconds(definition.timeout, (message) =>
    collected.others.push(diagnosticAt('warning', ...source.at([...path, 'timeout']), message)),
  );
  return {
    name: command ?? SINGLE_COMMAND_NAME,
    tool: commandToolName(name, command),
    description: definition.description ?? '',
    category: definition.category,
    parameters: definition.parameters,
    timeoutSeconds,
    template,
  };
}

function templateCommands(
  source: ManifestSource,
  manifest: SkillManifest,
  location: PackageLocation,
  name: string,
  collected: Collected,
): PackageCommand[] {
  const commands: (PackageCommand | undefined)[] = [];
  if (manifest.command !== undefined) {
    const definition = {
      command: manifest.command,
      parameters: manifest.parameters ?? {},
      timeout: manifest.timeout,
      category: manifest.category ?? 'general',
      description: manifest.description,
    };
    commands.push(templateCommand(source, location, name, undefined, definition, collected));
  }
  for (const [command, definition] of Object.entries(manifest.commands ?? {})) {
    commands.push(templateCommand(source, location, name, command, definition, collected));
  }
  return commands.filter((command): command is PackageCommand => command !== undefined);
}

/** A package's script-commands module: `scripts/commands.mjs` (run by Node) or `scripts/commands.py` (seed 004's Python). */
type ScriptLanguage = 'node' | 'python';

const MODULE_FILES: Record<ScriptLanguage, string> = { node: SCRIPT_COMMANDS_FILE, python: PYTHON_COMMANDS_FILE };

/** Which script-commands module the package has; both is an error (which one runs would be a guess). */
function scriptLanguageOf(location: PackageLocation, collected: Collected): ScriptLanguage | undefined {
  if (!location.entries.includes('scripts')) return undefined;
  // existsSync: a failed asynchronous check costs an Error with its stack, per package.
  const present = (['node', 'python'] as const).filter((language) => existsSync(join(location.folder, MODULE_FILES[language])));
  if (present.length === 2) {
    const where = join(location.folder, 'scripts');
    collected.errors.push(diagnosticAt('error', where, FILE_START, 'both scripts/commands.mjs and scripts/commands.py; keep one of them'));
    return undefined;
  }
  return present[0];
}

/** Lists the module's commands: `scripts/commands.mjs` run by the script host, `scripts/commands.py` parsed, never imported. */
async function listModule(language: ScriptLanguage, module: { path: string; source: string; stamp: string }, options: ScriptRunOptions) {
  const timed = { ...options, timeoutMs: SCRIPT_LIST_TIMEOUT_MS };
  if (language === 'python') return listPythonCommands(module, timed);
  return runScriptHost(module, { mode: 'list' }, timed);
}

async function scriptCommands(
  location: PackageLocation,
  name: string,
  language: ScriptLanguage,
  context: PackageLoadContext,
  collected: Collected,
): Promise<PackageCommand[]> {
  const relativePath = MODULE_FILES[language];
  const module = join(location.folder, relativePath);
  const fail = (message: string, position = FILE_START) => {
    collected.errors.push(diagnosticAt('error', module, position, message));
    return [];
  };
  const real = await realpath(module).catch(() => undefined);
  if (real === undefined || !isWithin(real, location.folder)) return fail(`${relativePath} leads out of the package folder`);
  // Stamped before the read: an edit after it shows as a change at the next run.
  const stamp = currentStamp(real);
  const source = await readFile(real, 'utf8').catch(() => undefined);
  if (source === undefined) return fail(`${relativePath} cannot be read`);
  let runOptions: PackageRunOptions;
  try {
    runOptions = await packageRunOptions({ services: context.services, folder: location.folder, maxOutputBytes: context.maxOutputBytes });
  } catch (error) {
    if (NexusError.isInstance(error) && error.code === 'SANDBOX_UNAVAILABLE') return fail(`the module is not listed: ${error.message}`);
    throw error;
  }
  const { run, answer } = await listModule(language, { path: real, source, stamp }, runOptions);
  if (run.timedOut) return fail(`listing the script commands took over ${SCRIPT_LIST_TIMEOUT_MS / 1000} s`);
  if (!answer.ok && language === 'python') return fail(answer.error, answer.position);
  if (!answer.ok)
    return fail(`the module cannot be loaded: ${answer.error.split('\n').slice(0, 4).join(' ')}`, modulePosition(answer.error, real));
  const commands: PackageCommand[] = [];
  for (const entry of answer.value as { exportName?: string; function?: string; line?: number }[]) {
    const { exportName, function: pythonFunction, line, ...definitionOnly } = entry;
    const parsed = scriptCommandSchema.safeParse(definitionOnly);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.length ? `\`${issue.path.join('.')}\`: ` : ''}${issue.message}`);
      const what = pythonFunction ? `the function \`${pythonFunction}\`` : `the export \`${exportName}\``;
      fail(`${what} is not a valid command: ${issues.join('; ')}`, line ? { line, column: 1 } : FILE_START);
      continue;
    }
    const definition = parsed.data;
    commands.push({
      name: definition.name,
      tool: commandToolName(name, definition.name),
      description: definition.description,
      category: definition.category,
      parameters: definition.parameters as Readonly<Record<string, ParameterDefinition>>,
      timeoutSeconds: commandSeconds(definition.timeout, (message) =>
        collected.others.push(diagnosticAt('warning', module, FILE_START, message)),
      ),
      script: real,
      scriptSource: source,
      scriptStamp: stamp,
      ...(pythonFunction ? { pythonFunction } : {}),
    });
  }
  return commands;
}

function duplicateCommands(commands: readonly PackageCommand[], file: string, collected: Collected): void {
  const seen = new Set<string>();
  for (const command of commands) {
    if (seen.has(command.tool)) collected.errors.push(diagnosticAt('error', file, FILE_START, `two commands are named "${command.name}"`));
    seen.add(command.tool);
  }
}

/** The package's {@link hashSkillPackage}; a package too large to hash is an error, since its tools' approvals could not tell a change. */
async function digestOf(folder: string, skillFile: string, collected: Collected): Promise<string | undefined> {
  try {
    return await hashSkillPackage(folder);
  } catch (error) {
    if (!NexusError.isInstance(error) || error.code !== 'SKILL_PACKAGE_TOO_LARGE') throw error;
    collected.errors.push(diagnosticAt('error', skillFile, FILE_START, `${error.message} Its commands are not offered.`));
    return undefined;
  }
}

/**
 * Loads one package: reads and validates its `SKILL.md`, compiles its command templates, works
 * out its trust and — only when it is trusted, since listing runs the module — lists its script
 * commands: `scripts/commands.mjs` in a child Node process, `scripts/commands.py` parsed by a child
 * python3 without importing it. A package with any error is a {@link BrokenSkillPackage}
 * carrying every diagnostic (`file:line:col` and the reason); warnings and notes stay with a
 * package that loads.
 */
export async function loadSkillPackage(location: PackageLocation, context: PackageLoadContext): Promise<SkillPackage | BrokenSkillPackage> {
  const skillFile = join(location.folder, SKILL_FILE_NAME);
  const broken = (diagnostics: SkillDiagnostic[], name?: string): BrokenSkillPackage => ({
    ...(name === undefined ? {} : { name }),
    folder: location.folder,
    folderName: location.folderName,
    root: location.root,
    skillFile,
    diagnostics,
  });
  const real = await realpath(skillFile).catch(() => skillFile);
  if (!isWithin(real, location.folder))
    return broken([diagnosticAt('error', skillFile, FILE_START, `SKILL.md is a link out of the package folder (to ${real})`)]);
  let skill: SkillFile;
  try {
    skill = await readSkillFile(skillFile);
  } catch (error) {
    if (SkillFileError.isInstance(error)) return broken([error.toDiagnostic()]);
    throw error;
  }
  const metadata = portableMetadata(skill);
  const frontmatterName = typeof skill.frontmatter.name === 'string' ? skill.frontmatter.name : undefined;
  const source = readManifestSource(skill, metadata.frontmatter, location.folder, location.entries);
  if ('errors' in source) return broken([...source.errors, ...metadata.diagnostics], frontmatterName);
  const parsed = skillManifestSchema.safeParse(source.frontmatter);
  if (!parsed.success) return broken([...schemaDiagnostics(source, parsed.error.issues), ...metadata.diagnostics], frontmatterName);
  const manifest = parsed.data;
  const collected: Collected = { errors: [], others: [...metadata.diagnostics] };
  const { name, portability } = checkIdentity(source, manifest, location, collected);
  if (metadata.diagnostics.length > 0) portability.push('`metadata` values that are not strings');
  checkAllowedTools(source, manifest, collected);
  checklist(location, collected);
  const trust = await packageTrust(location, context.trustRecords);
  const trusted = trust === 'user' || trust === 'trusted';
  const commands = templateCommands(source, manifest, location, name, collected);
  const language = scriptLanguageOf(location, collected);
  const hasScripts = language !== undefined;
  const marker = join(location.folder, 'scripts', '__init__.py');
  if (language === 'python' && !existsSync(marker))
    collected.others.push(
      diagnosticAt('note', marker, FILE_START, "no scripts/__init__.py (seed 004's package marker): commands.py is run as a plain module"),
    );
  const listScripts = hasScripts && trusted && context.listScriptCommands;
  if (listScripts) commands.push(...(await scriptCommands(location, name, language, context, collected)));
  duplicateCommands(commands, skillFile, collected);
  // A trusted project package was just hashed to match its trust record: that hash is its digest.
  const digest =
    trusted && commands.length > 0
      ? trust === 'trusted'
        ? context.trustRecords[location.folder]?.hash
        : await digestOf(location.folder, skillFile, collected)
      : undefined;
  if (collected.errors.length > 0) return broken([...collected.errors, ...collected.others], name);
  return {
    name,
    description: manifest.description,
    folder: location.folder,
    folderName: location.folderName,
    root: location.root,
    skillFile,
    manifest,
    trust,
    trusted,
    commands,
    ...(digest === undefined ? {} : { digest }),
    scriptCommands: hasScripts ? (listScripts ? 'listed' : 'not inspected') : 'none',
    hiddenFromModel: manifest['disable-model-invocation'] === true,
    portability,
    diagnostics: collected.others,
  };
}
