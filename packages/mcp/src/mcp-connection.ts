import {
  type CallToolResult,
  Client,
  type ElicitRequestParams,
  type ElicitResult,
  type InputResponses,
  isInputRequiredResult,
  type OAuthClientProvider,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  specTypeSchemas,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import { CancelledError, NexusError, type SkillContext, TimeoutError } from '@nexus/core';
import { z } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import { boundedFetch } from './bounded-fetch.js';
import { isStdioConfig, type McpServerConfig } from './mcp-server-config.js';
import { ProcessGroupTransport } from './process-group-transport.js';
import { MAX_RESTARTS, RESTART_WINDOW_MS, RestartLimit } from './restart-limit.js';

/** Where a server is: `running`; `stopped` (it exited, and starts again at the next list or call); `failed` (given up); `closed`. */
export type McpServerState = 'running' | 'stopped' | 'failed' | 'closed';

/** The server could not be started, reached or listed. */
export class McpServerUnavailableError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/mcp/McpServerUnavailableError');
  static override readonly code = 'MCP_SERVER_UNAVAILABLE';
  static override readonly kind = 'execution_failed';
}

/** A tool as a server lists it; its input schema is normalised later, per tool. */
export type ListedTool = Omit<Tool, 'inputSchema'> & { inputSchema: unknown };

/**
 * `tools/list` as servers really answer it: a listing is refused whole when one tool's input
 * schema is not `{ type: 'object', … }` (a bare top-level `anyOf`, as schema libraries write
 * unions), so the tools are taken as they come and their schemas normalised per tool.
 */
const LenientListToolsResultSchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string(), inputSchema: z.unknown() })),
  nextCursor: z.string().optional(),
});

/** How one call answers the server's questions during it (see `answerElicitation`). */
export type AnswerElicitation = (params: ElicitRequestParams) => Promise<ElicitResult>;

/**
 * How long a stdio server has to answer the revision question (`server/discover`): servers of some
 * SDKs say nothing to any request before `initialize`, and are then started again for it.
 */
const STDIO_PROBE_TIMEOUT_MS = 3_000;

/** Most rounds of questions one call may take before it fails (a server asking forever). */
const MAX_INPUT_ROUNDS = 8;

/** Starting a server and listing its tools may take this long (`npx` may download it first), or the call limit when longer. */
const START_TIMEOUT_MS = 60_000;

/** Time limits of one connection, in ms, and how it signs in. */
export interface ConnectionLimits {
  /** A call without an answer or progress for this long fails. */
  timeoutMs: number;
  /** A call fails after this long, progress or not. */
  maxTotalMs: number;
  /** The OAuth client of a Streamable HTTP server that wants OAuth. */
  authProvider?: OAuthClientProvider;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One MCP server over time: the SDK client of its current run, started lazily at the first list
 * or call and again after it stopped (a crash, a closed connection) — at most 3 restarts in 5
 * minutes, then it is `failed` with its last error — and its tool list, read again when the server
 * says it changed (`notifications/tools/list_changed`) or after a restart.
 */
export class McpConnection {
  readonly #name: string;
  readonly #config: McpServerConfig;
  readonly #limits: ConnectionLimits;
  readonly #restarts = new RestartLimit();
  #state: McpServerState = 'stopped';
  #lastError: string | undefined;
  #client: Client | undefined;
  #starting: Promise<Client> | undefined;
  #startedOnce = false;
  /** The server answered as a 2025-era one: its next runs are not asked for their revision. */
  #legacy = false;
  #tools: ListedTool[] | undefined;
  #toolsStale = true;
  #listing: Promise<void> | undefined;
  #onToolListChanged: (() => void) | undefined;
  /** How each call in flight answers the server's questions. */
  readonly #answering = new Set<AnswerElicitation>();

  constructor(name: string, config: McpServerConfig, limits: ConnectionLimits) {
    this.#name = name;
    this.#config = config;
    this.#limits = limits;
  }

  get state(): McpServerState {
    return this.#state;
  }

  /** Why the server last stopped or could not be started, or what else last went wrong with it (see {@link noteError}). */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Records a problem with the server found outside the connection, for {@link lastError}. */
  noteError(message: string): void {
    this.#lastError = message;
  }

  /** Calls `listener` each time the server sends `notifications/tools/list_changed` (its tools are then stale). */
  onToolListChanged(listener: () => void): void {
    this.#onToolListChanged = listener;
  }

  /** The tools of the last listing (empty before the first). */
  get tools(): readonly ListedTool[] {
    return this.#tools ?? [];
  }

  /**
   * The tools, read from the server when it said they changed, after a restart, or the first time.
   * A listing under way is joined, and read again once when the server said they changed meanwhile.
   */
  async listTools(): Promise<readonly ListedTool[]> {
    const client = await this.#connected();
    // A listing under way may have started before the last change: then the next one's answer is
    // the one to give. No more rounds than that, so a server saying its tools changed at every
    // listing cannot hold the caller (the tools stay stale and are read again next time).
    for (let round = 0; round < 2 && (this.#listing || !this.#tools || this.#toolsStale); round++) {
      this.#listing ??= this.#list(client).finally(() => {
        this.#listing = undefined;
      });
      await this.#listing;
    }
    return this.tools;
  }

  async #list(client: Client): Promise<void> {
    this.#toolsStale = false;
    try {
      this.#tools = await listAllTools(client, this.#startTimeoutMs);
    } catch (error) {
      this.#toolsStale = true;
      throw this.#callError('tools/list', error, undefined, undefined);
    }
  }

  /**
   * Calls a tool by its original name. The call's `signal` cancels it on the server; each progress
   * notification resets its time limit (up to `maxTotalMs`), extends the registry's deadline as much,
   * and reaches `onProgress`. A question the server asks during the call goes to `answer`: a
   * 2026-07-28 server's `input_required` (answered, then the call is retried with the answers), or a
   * 2025-era server's `elicitation/create` — that one only while this is the server's one call in
   * flight, since nothing says which call such a question belongs to (otherwise it is declined).
   */
  async callTool(tool: string, args: Record<string, unknown>, context: SkillContext, answer: AnswerElicitation): Promise<CallToolResult> {
    const { signal, onProgress, extendDeadline } = context;
    const client = await this.#connected();
    const { timeoutMs, maxTotalMs } = this.#limits;
    const total = new AbortController();
    const timer = setTimeout(() => total.abort(), maxTotalMs).unref();
    const cancel = () => total.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    this.#answering.add(answer);
    const options = {
      timeout: timeoutMs,
      resetTimeoutOnProgress: true,
      signal: total.signal,
      allowInputRequired: true,
      onprogress: ({ progress, total: of, message }: { progress: number; total?: number; message?: string }) => {
        extendDeadline?.(timeoutMs);
        onProgress?.({ current: progress, ...(of === undefined ? {} : { total: of }), ...(message ? { message } : {}) });
      },
    };
    try {
      let params: Record<string, unknown> = { name: tool, arguments: args };
      for (let round = 0; ; round++) {
        // The answer is checked against the SDK's CallToolResult schema. Not client.callTool, which checks
        // it too, but first, at every call, looks the tool up in a tools/list cache these connections never
        // fill (they list with their own schema) and probes its result check by validating `undefined`,
        // building a zod error each time (see docs/design-decisions.md, issue 24, "The importer").
        const result: unknown = await client.request({ method: 'tools/call', params }, specTypeSchemas.CallToolResult, options);
        if (!isInputRequiredResult(result)) return result as CallToolResult;
        if (round === MAX_INPUT_ROUNDS) throw new Error(`the server asked for input more than ${MAX_INPUT_ROUNDS} times`);
        const inputResponses: InputResponses = {};
        for (const [key, request] of Object.entries(result.inputRequests ?? {})) {
          if (request.method !== 'elicitation/create')
            throw new Error(`the server asked for ${request.method}, which Nexus does not answer`);
          inputResponses[key] = await answer(request.params as ElicitRequestParams);
        }
        params = {
          name: tool,
          arguments: args,
          inputResponses,
          ...(result.requestState === undefined ? {} : { requestState: result.requestState }),
        };
      }
    } catch (error) {
      throw this.#callError(`"${tool}"`, error, signal, total.signal);
    } finally {
      this.#answering.delete(answer);
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Ends the connection for good; a stdio server's whole process group is ended. */
  async close(): Promise<void> {
    this.#state = 'closed';
    const client = this.#client ?? (await this.#starting?.catch(() => undefined));
    this.#client = undefined;
    await client?.close();
  }

  #connected(): Promise<Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#starting ??= this.#start().finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  async #start(): Promise<Client> {
    if (this.#state === 'closed') throw new McpServerUnavailableError(`The MCP server "${this.#name}" was closed.`);
    if (this.#state === 'failed') throw this.#failedError();
    if (this.#startedOnce && !this.#restarts.take()) {
      this.#state = 'failed';
      throw this.#failedError();
    }
    this.#startedOnce = true;
    let client: Client;
    try {
      client = await this.#connect(this.#legacy ? 'legacy' : 'auto').catch(async (error: unknown) => {
        // A stdio server that exits on the revision question, or says nothing to it, is a 2025-era one: start it again for `initialize`.
        if (this.#legacy || !isStdioConfig(this.#config)) throw error;
        this.#legacy = true;
        return this.#connect('legacy');
      });
    } catch (error) {
      this.#lastError = describeError(error);
      throw new McpServerUnavailableError(`The MCP server "${this.#name}" could not be started: ${this.#lastError}`, { cause: error });
    }
    // close() may have been called while the server was starting.
    if ((this.#state as McpServerState) === 'closed') {
      await client.close();
      throw new McpServerUnavailableError(`The MCP server "${this.#name}" was closed.`);
    }
    this.#client = client;
    this.#state = 'running';
    this.#toolsStale = true;
    return client;
  }

  /**
   * A client connected to a new run of the server: `auto` asks the server for its revision
   * (`server/discover`) and speaks 2026-07-28 when it has it, else `initialize`s as a 2025-era
   * client; `legacy` goes straight to `initialize`.
   */
  async #connect(mode: 'auto' | 'legacy'): Promise<Client> {
    const client = new Client(
      { name: 'nexus', version: packageJson.version },
      {
        // Questions are put to whoever made the call (callTool's `answer`), never answered here.
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
        versionNegotiation: { mode, ...(isStdioConfig(this.#config) ? { probe: { timeoutMs: STDIO_PROBE_TIMEOUT_MS } } : {}) },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              this.#toolsStale = true;
              // A change said during a listing is read by that listing's caller (listTools lists once more);
              // starting another listing for it would let a server that answers each listing with a change
              // keep the connection listing forever.
              if (!this.#listing) this.#onToolListChanged?.();
            },
          },
        },
      },
    );
    client.setRequestHandler('elicitation/create', (request) => {
      const [only, ...others] = this.#answering;
      return only && others.length === 0 ? only(request.params) : { action: 'decline' };
    });
    client.onclose = () => this.#lost(client);
    try {
      await client.connect(createTransport(this.#config, this.#limits.authProvider), { timeout: this.#startTimeoutMs });
    } catch (error) {
      await client.close();
      throw error;
    }
    if (client.getProtocolEra() === 'legacy') this.#legacy = true;
    return client;
  }

  /** The connection of `client` ended without `close()`: the server exited or crashed. */
  #lost(client: Client): void {
    if (this.#client !== client || this.#state === 'closed') return;
    this.#client = undefined;
    this.#state = 'stopped';
    this.#lastError = 'the server exited or closed the connection';
  }

  get #startTimeoutMs(): number {
    return Math.max(START_TIMEOUT_MS, this.#limits.timeoutMs);
  }

  #failedError(): McpServerUnavailableError {
    const why = `it stopped more than ${MAX_RESTARTS} times within ${RESTART_WINDOW_MS / 60_000} minutes`;
    return new McpServerUnavailableError(
      `The MCP server "${this.#name}" failed and is not restarted (${why}); last error: ${this.#lastError}.`,
    );
  }

  #callError(what: string, error: unknown, signal: AbortSignal | undefined, total: AbortSignal | undefined): NexusError {
    const where = `${what} of the MCP server "${this.#name}"`;
    const { timeoutMs, maxTotalMs } = this.#limits;
    if (signal?.aborted) return new CancelledError(`Cancelled ${where}; the server was told.`, { cause: error });
    if (total?.aborted) {
      return new TimeoutError(
        `${where} did not finish within ${maxTotalMs / 1000} s (the server's \`maxTotalSeconds\`); it was cancelled.`,
        {
          timeoutMs: maxTotalMs,
          cause: error,
        },
      );
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      return new TimeoutError(`${where} did not answer within ${timeoutMs / 1000} s (the server's \`timeoutSeconds\`).`, {
        timeoutMs,
        cause: error,
      });
    }
    if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
      const next = this.#state === 'closed' ? '' : '; it is started again at the next call';
      return new McpServerUnavailableError(
        `The MCP server "${this.#name}" closed the connection during ${what} (it exited or crashed)${next}.`,
        {
          cause: error,
        },
      );
    }
    return new NexusError(`${where} failed: ${describeError(error)}`, { cause: error, kind: 'execution_failed' });
  }
}

function createTransport(server: McpServerConfig, authProvider: OAuthClientProvider | undefined): Transport {
  if (isStdioConfig(server)) {
    const { command, args = [], env = {}, cwd } = server;
    return new ProcessGroupTransport({ command, args, env, cwd });
  }
  // The fetch bounds each message the server sends, as ProcessGroupTransport does for stdio.
  const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: server.headers ?? {} },
    ...(authProvider ? { authProvider } : {}),
    fetch: boundedFetch(fetch, { onerror: (error) => transport.onerror?.(error) }),
  });
  return transport;
}

async function listAllTools(client: Client, timeoutMs: number): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  do {
    const params = cursor === undefined ? {} : { cursor };
    const page = await client.request({ method: 'tools/list', params }, LenientListToolsResultSchema, { timeout: timeoutMs });
    tools.push(...(page.tools as ListedTool[]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
