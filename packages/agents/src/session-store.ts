import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteVerified, NexusError } from '@nexus/core';
import type { ModelMessage } from 'ai';
import { z } from 'zod';
import type { TurnUsage } from './agent.js';
import { PERMISSION_LEVEL_SCHEMA } from './rpc-params.js';

/** Version of the session file format. */
export const SESSION_SCHEMA_VERSION = 1;

const sessionSchema = z.object({
  schema_version: z.literal(SESSION_SCHEMA_VERSION),
  agent_id: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  model: z.string(),
  system_prompt: z.string(),
  cwd: z.string(),
  permission_level: PERMISSION_LEVEL_SCHEMA,
  preset: PERMISSION_LEVEL_SCHEMA,
  disabled_tools: z.array(z.string()),
  write_paths: z.array(z.string()),
  parent_agent_id: z.string().nullable(),
  messages: z.array(z.custom<ModelMessage>((value) => typeof value === 'object' && value !== null)),
  token_usage: z.custom<TurnUsage>(),
});

/** An agent as saved after every turn (specs/agent-server.md §7). */
export type Session = z.infer<typeof sessionSchema>;

/** A session file that exists but cannot be read back. */
export class SessionFileError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/agents/SessionFileError');
  static override readonly code: string = 'SESSION_FILE';
}

/**
 * Agent sessions in `<stateDir>/sessions/<agent_id>.json`: files 0600 in a 0700 directory, written
 * atomically, so a server killed mid-turn loses nothing that was answered. A file that does not
 * parse is reported, never replaced in silence.
 */
export class SessionStore {
  readonly directory: string;

  constructor(stateDir: string) {
    this.directory = join(stateDir, 'sessions');
  }

  #file(agentId: string): string {
    return join(this.directory, `${agentId}.json`);
  }

  async save(session: Session): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    await atomicWriteVerified(this.#file(session.agent_id), Buffer.from(JSON.stringify(session)), { mode: 0o600 });
  }

  /** The saved session, or `undefined` when there is none; throws a {@link SessionFileError} for a broken file. */
  async load(agentId: string): Promise<Session | undefined> {
    const file = this.#file(agentId);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SessionFileError(`Session file ${file} cannot be read: ${(error as Error).message}`, { cause: error });
    }
    try {
      const session = sessionSchema.parse(JSON.parse(text));
      if (session.agent_id !== agentId) throw new Error(`it holds agent "${session.agent_id}"`);
      return session;
    } catch (error) {
      throw new SessionFileError(`Session file ${file} is not a valid session: ${(error as Error).message}`, { cause: error });
    }
  }

  async delete(agentId: string): Promise<void> {
    await rm(this.#file(agentId), { force: true });
  }
}
