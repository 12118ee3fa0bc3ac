import { open } from 'node:fs/promises';
import { nexusStateDir } from '@nexus/core';
import {
  AGENT_SERVER_KEY_VARIABLE,
  AgentRpcError,
  agentServerTokenPath,
  DEFAULT_AGENT_SERVER_PORT,
  MIN_AGENT_SERVER_KEY_LENGTH,
  RPC_ERROR_CODES,
} from '@nexus/core/agent-server';

/** The command that starts an agent server on `port`, for messages. */
export function serveCommandFor(port: number): string {
  return `\`nexus serve${port === DEFAULT_AGENT_SERVER_PORT ? '' : ` --port ${port}`}\``;
}

function tokenError(message: string, kind: 'forbidden' | 'execution_failed' = 'execution_failed'): AgentRpcError {
  return new AgentRpcError(message, { rpcCode: RPC_ERROR_CODES.serverError, kind });
}

/**
 * The bearer token of the agent server on `port`: `NEXUS_API_KEY` when set, else the server's token
 * file. A file others may read or write is refused (anyone could have read or planted it).
 */
export async function readAgentServerToken(port: number, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const key = env[AGENT_SERVER_KEY_VARIABLE];
  if (key !== undefined && key !== '') {
    if (key.length < MIN_AGENT_SERVER_KEY_LENGTH) {
      throw tokenError(
        `${AGENT_SERVER_KEY_VARIABLE} is shorter than ${MIN_AGENT_SERVER_KEY_LENGTH} characters; the agent server refuses such a key.`,
      );
    }
    return key;
  }
  const path = agentServerTokenPath(port, nexusStateDir(env));
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw tokenError(
        `No token for an agent server on port ${port}: ${AGENT_SERVER_KEY_VARIABLE} is not set and ${path} does not exist — start one with ${serveCommandFor(port)}.`,
      );
    }
    throw tokenError(`Cannot read the agent server's token file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw tokenError(`The agent server's token file ${path} is not a regular file.`, 'forbidden');
    if ((stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
      throw tokenError(
        `The agent server's token file ${path} is open to other users (mode ${mode}), so it is not used; run \`chmod 600 ${path}\` if you trust it.`,
        'forbidden',
      );
    }
    const token = (await handle.readFile('utf8')).trim();
    if (token === '') throw tokenError(`The agent server's token file ${path} is empty.`);
    return token;
  } finally {
    await handle.close();
  }
}
