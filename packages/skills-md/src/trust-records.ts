import { join } from 'node:path';
import { readJsonState, updateJsonState } from './json-state-file.js';
import { hashSkillPackage } from './package-hash.js';
import type { SkillRoot } from './skill-locations.js';
import type { TrustState } from './skill-package.js';

/** File name of the trust records in the user's state directory (never in a project). */
export const TRUST_FILE_NAME = 'skills-trust.json';

/** What trusting a package recorded. */
export interface TrustRecord {
  /** The skill's name when it was trusted. */
  name: string;
  /** {@link hashSkillPackage} of the folder when it was trusted. */
  hash: string;
  /** ISO time. */
  trusted_at: string;
}

/** The trust records, by the package's real folder path. */
export async function readTrustRecords(stateDirectory: string): Promise<Record<string, TrustRecord>> {
  return (await readJsonState(join(stateDirectory, TRUST_FILE_NAME))) as Record<string, TrustRecord>;
}

/** Records the current content of the package at `folder` as trusted; returns its hash. */
export async function recordTrust(stateDirectory: string, folder: string, name: string, now = new Date()): Promise<string> {
  const hash = await hashSkillPackage(folder);
  await updateJsonState(join(stateDirectory, TRUST_FILE_NAME), (state) => ({
    ...state,
    [folder]: { name, hash, trusted_at: now.toISOString() } satisfies TrustRecord,
  }));
  return hash;
}

/** Whether the package at `folder` is what `record` trusted: same content, byte for byte. */
export async function matchesTrust(folder: string, record: TrustRecord | undefined): Promise<boolean> {
  if (!record) return false;
  try {
    return (await hashSkillPackage(folder)) === record.hash;
  } catch {
    return false;
  }
}

/** How far the package at `folder` under `root` is trusted: a user root's are, a project's only while unchanged since trusted. */
export async function packageTrust(
  location: { readonly folder: string; readonly root: SkillRoot },
  records: Readonly<Record<string, TrustRecord>>,
): Promise<TrustState> {
  if (location.root.scope === 'user') return 'user';
  const record = records[location.folder];
  if (!record) return 'untrusted';
  return (await matchesTrust(location.folder, record)) ? 'trusted' : 'changed';
}
