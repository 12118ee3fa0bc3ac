import { constants } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteVerified, isValidAgentId, NexusError, openVerified, type ToolRule } from '@nexus/core';
import type { ModelMessage } from 'ai';
import { z } from 'zod';
import type { TurnState } from './agent-turn.js';
import type { TurnUsage } from './agent-usage.js';
import type { RememberedApproval } from './approvals.js';
import { PERMISSION_LEVEL_SCHEMA } from './rpc-params.js';

/** Version of the session format: a header plus a message log (specs/agent-server.md §9). */
export const SESSION_SCHEMA_VERSION = 2;
/** The single-file format of specs/agent-server.md §7, converted on first use. */
const SINGLE_FILE_SCHEMA_VERSION = 1;

const isObject = (value: unknown) => typeof value === 'object' && value !== null;
const messageSchema = z.custom<ModelMessage>(isObject);
const headerFields = {
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
  /** The person whose agent it is (their token's subject); absent: the static token holder's. */
  owner: z.string().optional(),
  /** Paths blocked for the owner on top of the server's. */
  blocked_paths: z.array(z.string()).optional(),
  /** The owner's governance rules, decided before the preset. */
  rules: z.array(z.custom<ToolRule>(isObject)).optional(),
  token_usage: z.custom<TurnUsage>(),
  /** The turn that was running or paused for approval when the session was saved (specs/agent-server.md §8). */
  turn: z.custom<TurnState>(isObject).nullable().optional(),
  remembered_approvals: z.array(z.custom<RememberedApproval>(isObject)).optional(),
};
const headerSchema = z.object({ schema_version: z.literal(SESSION_SCHEMA_VERSION), ...headerFields });
const singleFileSchema = z.object({
  schema_version: z.literal(SINGLE_FILE_SCHEMA_VERSION),
  ...headerFields,
  messages: z.array(messageSchema),
});

/** A session's header: every field but the conversation. */
export type SessionHeader = z.infer<typeof headerSchema>;
/** An agent as saved after every turn: its header fields and its conversation. */
export type Session = SessionHeader & { messages: ModelMessage[] };

/** A session read back, with what the reading had to repair (a torn last line after a crash). */
export interface RestoredSession {
  session: Session;
  warnings: string[];
}

/** A session file that exists but cannot be read back. */
export class SessionFileError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/agents/SessionFileError');
  static override readonly code: string = 'SESSION_FILE';
}

/**
 * How far an agent's log is written: its message count and its first and last messages, by
 * identity — a compaction replaces the first, a clear both, a turn neither.
 */
interface LogMark {
  count: number;
  first: ModelMessage | undefined;
  last: ModelMessage | undefined;
}

const markOf = (messages: readonly ModelMessage[]): LogMark => ({ count: messages.length, first: messages[0], last: messages.at(-1) });

const NEWLINE = 0x0a;
const toLines = (messages: readonly ModelMessage[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join('');

/**
 * Agent sessions in `<stateDir>/sessions/<agent_id>/` (0700): `session.json`, the header (written
 * atomically), and `messages.jsonl`, one message a line, to which a save appends only the
 * messages since the last one and fsyncs — so a save costs the same at any length of history. A
 * conversation that is no longer an extension of the saved one (compacted, cleared) replaces the
 * log atomically. A torn last line (a crash mid-append) is dropped and reported; any other damage
 * is reported, never replaced in silence. Sessions in the single-file format
 * (`<agent_id>.json`) are converted when first read.
 */
export class SessionStore {
  readonly directory: string;
  readonly #marks = new Map<string, LogMark>();
  /** The save running for each agent: saves of one agent run one after another. */
  readonly #saving = new Map<string, Promise<void>>();

  constructor(stateDir: string) {
    this.directory = join(stateDir, 'sessions');
  }

  #folder(agentId: string): string {
    return join(this.directory, agentId);
  }

  #header(agentId: string): string {
    return join(this.#folder(agentId), 'session.json');
  }

  #log(agentId: string): string {
    return join(this.#folder(agentId), 'messages.jsonl');
  }

  #singleFile(agentId: string): string {
    return join(this.directory, `${agentId}.json`);
  }

  save(session: Session): Promise<void> {
    const id = session.agent_id;
    const saved = (this.#saving.get(id) ?? Promise.resolve()).catch(() => {}).then(() => this.#write(session));
    this.#saving.set(id, saved);
    void saved.finally(() => this.#saving.get(id) === saved && this.#saving.delete(id)).catch(() => {});
    return saved;
  }

  async #write({ messages, ...header }: Session): Promise<void> {
    const id = header.agent_id;
    await mkdir(this.#folder(id), { recursive: true, mode: 0o700 });
    const mark = this.#marks.get(id);
    // Until this save succeeds, what the log holds is unknown (a failed append may have written part of it): the next one replaces it.
    this.#marks.delete(id);
    const extendsLog =
      mark !== undefined &&
      mark.count <= messages.length &&
      (mark.count === 0 || (messages[0] === mark.first && messages[mark.count - 1] === mark.last));
    if (extendsLog) await this.#append(id, messages.slice(mark.count));
    else await atomicWriteVerified(this.#log(id), Buffer.from(toLines(messages)), { mode: 0o600 });
    this.#marks.set(id, markOf(messages));
    // After the log: a header on disk always has its log.
    await atomicWriteVerified(this.#header(id), Buffer.from(JSON.stringify(header)), { mode: 0o600 });
  }

  async #append(agentId: string, messages: readonly ModelMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const handle = await openVerified(this.#log(agentId), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
    try {
      await handle.writeFile(toLines(messages));
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** The ids of the saved sessions. */
  async ids(): Promise<string[]> {
    const entries = await readdir(this.directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const ids = entries.map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.json$/, '')));
    return [...new Set(ids)].filter(isValidAgentId);
  }

  /** A saved session's header, without reading its conversation (`undefined` when there is none). */
  async header(agentId: string): Promise<SessionHeader | undefined> {
    if (!isValidAgentId(agentId)) return undefined;
    const header = await this.#readHeader(agentId);
    if (header) return header;
    const single = await readIfExists(this.#singleFile(agentId));
    if (single === undefined) return undefined;
    const { messages: _messages, ...old } = parseFile(this.#singleFile(agentId), agentId, () =>
      singleFileSchema.parse(JSON.parse(single.toString('utf8'))),
    );
    return { ...old, schema_version: SESSION_SCHEMA_VERSION };
  }

  /**
   * The saved session, or `undefined` when there is none; throws a {@link SessionFileError} for a
   * broken file. A torn last line is cut from the log and named in `warnings`. An id that is not a
   * valid agent id (`a/../x`) names no session.
   */
  async load(agentId: string): Promise<RestoredSession | undefined> {
    if (!isValidAgentId(agentId)) return undefined;
    const header = await this.#readHeader(agentId);
    if (!header) return this.#convert(agentId);
    const log = this.#log(agentId);
    const bytes = await readIfExists(log);
    if (bytes === undefined) throw new SessionFileError(`Session file ${log} is missing.`);
    const whole = bytes.lastIndexOf(NEWLINE) + 1;
    const lines = bytes.subarray(0, whole).toString('utf8').split('\n').slice(0, -1);
    const messages = parseFile(log, agentId, () => lines.map((line) => messageSchema.parse(JSON.parse(line))));
    const warnings: string[] = [];
    if (whole < bytes.length) {
      // Cut before the next append, which would otherwise continue the torn line.
      const handle = await openVerified(log, constants.O_WRONLY);
      await handle.truncate(whole).finally(() => handle.close());
      warnings.push(`Session file ${log}: dropped a torn last line (${bytes.length - whole} bytes) left by an interrupted write.`);
    }
    this.#marks.set(agentId, markOf(messages));
    return { session: { ...header, messages }, warnings };
  }

  async #readHeader(agentId: string): Promise<SessionHeader | undefined> {
    const file = this.#header(agentId);
    const bytes = await readIfExists(file);
    return bytes && parseFile(file, agentId, () => headerSchema.parse(JSON.parse(bytes.toString('utf8'))));
  }

  /** Reads a single-file session and saves it in the current format in its place. */
  async #convert(agentId: string): Promise<RestoredSession | undefined> {
    const file = this.#singleFile(agentId);
    const bytes = await readIfExists(file);
    if (bytes === undefined) return undefined;
    const old = parseFile(file, agentId, () => singleFileSchema.parse(JSON.parse(bytes.toString('utf8'))));
    const session: Session = { ...old, schema_version: SESSION_SCHEMA_VERSION };
    await this.save(session);
    await rm(file, { force: true });
    return { session, warnings: [] };
  }

  async delete(agentId: string): Promise<void> {
    this.#marks.delete(agentId);
    await this.#saving.get(agentId)?.catch(() => {});
    await rm(this.#folder(agentId), { recursive: true, force: true });
    await rm(this.#singleFile(agentId), { force: true });
  }
}

/**
 * A session file's bytes, read through core's `openVerified` (a symlink planted at it or in a
 * parent is refused, never followed), or `undefined` when there is none.
 */
async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    const handle = await openVerified(file, constants.O_RDONLY);
    return await handle.readFile().finally(() => handle.close());
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SessionFileError(`Session file ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

/** The parsed content of a session file of `agentId`; a {@link SessionFileError} naming the file otherwise. */
function parseFile<T>(file: string, agentId: string, parse: () => T): T {
  try {
    const parsed = parse();
    const owner = (parsed as { agent_id?: unknown }).agent_id;
    if (owner !== undefined && owner !== agentId) throw new Error(`it holds agent "${String(owner)}"`);
    return parsed;
  } catch (error) {
    throw new SessionFileError(`Session file ${file} is not a valid session: ${(error as Error).message}`, { cause: error });
  }
}
