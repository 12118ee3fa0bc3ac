import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteVerified, ConfigError } from '@nexus/core';
import { AGENT_SERVER_KEY_VARIABLE, MIN_AGENT_SERVER_KEY_LENGTH } from '@nexus/core/agent-server';

/** A fresh token: `nxk_` and 32 random bytes, base64url. */
export function newToken(): string {
  return `nxk_${randomBytes(32).toString('base64url')}`;
}

/** The token from `NEXUS_API_KEY`, or `undefined` when it is unset; too short a key is a {@link ConfigError}. */
export function tokenFromEnvironment(env: NodeJS.ProcessEnv): string | undefined {
  const key = env[AGENT_SERVER_KEY_VARIABLE];
  if (!key) return undefined;
  if (key.length < MIN_AGENT_SERVER_KEY_LENGTH)
    throw new ConfigError(`${AGENT_SERVER_KEY_VARIABLE} must be at least ${MIN_AGENT_SERVER_KEY_LENGTH} characters long.`);
  return key;
}

/**
 * Writes the token where clients look for it: the stale file removed first, then the new one
 * written atomically with mode 0600 in a 0700 directory.
 */
export async function writeTokenFile(file: string, token: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await rm(file, { force: true });
  await atomicWriteVerified(file, Buffer.from(`${token}\n`), { mode: 0o600 });
}
