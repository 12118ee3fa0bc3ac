import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Nexus keeps state between runs (agent sessions, the agent server's token, skill trust and
 * usage records): `$XDG_STATE_HOME/nexus`, by default `~/.local/state/nexus`.
 */
export function nexusStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state'), 'nexus');
}
