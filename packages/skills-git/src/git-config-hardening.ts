import { PermissionDeniedError } from '@nexus/core';

/** One entry of `git config --list --show-scope`. */
export interface ConfigEntry {
  readonly scope: string;
  /** As git prints it: section and variable lower-cased, subsection as written. */
  readonly key: string;
  readonly value: string | null;
}

/**
 * Configuration that makes git run a program, and the value that neutralises it for read-only
 * commands. Matched against the lower-cased key.
 */
const PROGRAM_KEYS: readonly { readonly key: RegExp; readonly neutral: string }[] = [
  { key: /^filter\..+\.(clean|smudge|process)$/, neutral: '' },
  { key: /^diff\..+\.textconv$/, neutral: 'cat' },
  { key: /^diff\..+\.command$/, neutral: '' },
  { key: /^diff\.external$/, neutral: '' },
  { key: /^merge\..+\.driver$/, neutral: '' },
  { key: /^gpg\.program$/, neutral: 'gpg' },
  { key: /^gpg\.openpgp\.program$/, neutral: 'gpg' },
  { key: /^gpg\.x509\.program$/, neutral: 'gpgsm' },
  { key: /^gpg\.ssh\.program$/, neutral: 'ssh-keygen' },
  { key: /^gpg\.ssh\.defaultkeycommand$/, neutral: '' },
  { key: /^core\.(askpass|gitproxy|alternaterefscommand)$/, neutral: '' },
  { key: /^core\.sshcommand$/, neutral: 'ssh' },
  { key: /^credential\.(.+\.)?helper$/, neutral: '' },
  { key: /^remote\..+\.uploadpack$/, neutral: 'git-upload-pack' },
  { key: /^remote\..+\.receivepack$/, neutral: 'git-receive-pack' },
  { key: /^trailer\..+\.(command|cmd)$/, neutral: '' },
  { key: /^interactive\.difffilter$/, neutral: '' },
  { key: /^tar\..+\.command$/, neutral: '' },
  { key: /^uploadpack\.packobjectshook$/, neutral: '' },
  { key: /^submodule\..+\.update$/, neutral: 'checkout' },
  { key: /^init\.templatedir$/, neutral: '' },
  { key: /^pager\..+$/, neutral: 'false' },
];

/**
 * `-c` overrides every git run gets below yolo, whatever the repository says: no fsmonitor
 * daemon, no hooks, no pager, no `ext::`/`fd::` transports, and garbage collection in the
 * foreground (a detached one would be ended with the run).
 */
export const ALWAYS_OVERRIDDEN: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['protocol.ext.allow', 'never'],
  ['protocol.fd.allow', 'never'],
  ['gc.autoDetach', 'false'],
];

/** Further overrides for read-only commands: no network at all, no look into submodule work trees. */
export const READ_ONLY_OVERRIDDEN: readonly (readonly [string, string])[] = [
  ['protocol.allow', 'never'],
  ['diff.ignoreSubmodules', 'dirty'],
];

/** Parses `git config --list --null --show-scope` output (`scope\0key\nvalue\0` records). */
export function parseConfigList(text: string): ConfigEntry[] {
  const fields = text.split('\0');
  const entries: ConfigEntry[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index] as string;
    const entry = fields[index + 1] as string;
    const newline = entry.indexOf('\n');
    entries.push(
      newline === -1 ? { scope, key: entry, value: null } : { scope, key: entry.slice(0, newline), value: entry.slice(newline + 1) },
    );
  }
  return entries;
}

function programKey(entry: ConfigEntry): { readonly neutral: string } | undefined {
  const key = entry.key.toLowerCase();
  if (/^submodule\..+\.update$/.test(key) && !entry.value?.startsWith('!')) return undefined;
  return PROGRAM_KEYS.find((candidate) => candidate.key.test(key));
}

/** The `key=value` pairs that neutralise every program-running setting in `entries`, for read-only commands. */
export function neutralizingOverrides(entries: readonly ConfigEntry[]): [string, string][] {
  const overrides = new Map<string, string>();
  for (const entry of entries) {
    const match = programKey(entry);
    if (!match) continue;
    overrides.set(entry.key, match.neutral);
    const filter = /^(filter\..+)\.(clean|smudge|process)$/i.exec(entry.key);
    if (filter) overrides.set(`${filter[1]}.required`, 'false');
  }
  return [...overrides];
}

/**
 * Refuses a write command in a repository whose own configuration (local or worktree scope)
 * sets something that runs a program: the repository is what an attacker controls, while the
 * user's global configuration (a git-lfs filter, a credential helper) is trusted. Settings the
 * skill overrides anyway (hooks, fsmonitor, pagers: see {@link ALWAYS_OVERRIDDEN} and
 * `--no-pager`) are not counted.
 */
export function assertNoRepositoryPrograms(entries: readonly ConfigEntry[]): void {
  const found = entries
    .filter((entry) => (entry.scope === 'local' || entry.scope === 'worktree') && programKey(entry) !== undefined)
    .map((entry) => entry.key)
    .filter((key) => !/^pager\./i.test(key));
  if (found.length > 0) {
    throw new PermissionDeniedError(
      `This repository's own configuration sets ${[...new Set(found)].join(', ')}, which make${found.length === 1 ? 's' : ''} git run programs; ` +
        'write commands refuse to run in it below yolo. Read-only commands still work (the settings are neutralised for them).',
    );
  }
}

/** Turns `key=value` pairs into `-c` arguments. */
export function configArguments(pairs: readonly (readonly [string, string])[]): string[] {
  return pairs.flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}
