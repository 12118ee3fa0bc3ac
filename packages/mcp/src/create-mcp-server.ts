import { randomBytes } from 'node:crypto';
import { type CallToolResult, isInputRequiredResult, Server, type Tool } from '@modelcontextprotocol/server';
import { type ConfirmFunction, expectOption, isPositiveNumber, type JsonSchemaObject, type ToolResult } from '@nexus/core';
import type { SkillRegistry } from '@nexus/registry';
import packageJson from '../package.json' with { type: 'json' };
import { type ClientLog, followClientLog } from './client-log.js';
import { ConfirmationRounds, policyDigest } from './confirmation-rounds.js';
import { mcpCaller } from './mcp-caller.js';
import { forwardProgress } from './progress-forwarder.js';
import { documentCapabilities, followDocuments, serveDocuments } from './serve-documents.js';
import { toCallToolResult } from './tool-call-result.js';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients (default `nexus`). */
  name?: string;
  /** Server version reported to clients (default the version of `@nexus/mcp`). */
  version?: string;
  /** Text clients may show their model about how to use the tools. */
  instructions?: string;
  /**
   * Messages for the client's log: the server then declares `logging` and sends them (see
   * {@link ClientLog}) to 2025-era clients; the 2026-07-28 revision deprecates server logging, and
   * its clients are not sent them.
   */
  log?: ClientLog;
  /**
   * Key signing the `requestState` of confirmations (HMAC-SHA256), at least 32 bytes. Servers that
   * share a key accept each other's confirmations: give every process behind one load balancer the
   * same one. Default: 32 random bytes, drawn once per {@link serveHttp} / {@link serveStdio} /
   * {@link createMcpServer} call.
   */
  stateKey?: string | Uint8Array;
  /** How long the user has to answer a confirmation before it expires, in seconds (default 600). */
  confirmationTimeoutSeconds?: number;
  /** How long 2026-07-28 clients may keep a `tools/list` answer, in milliseconds (default 60 000); a change is announced at once anyway. */
  toolListTtlMs?: number;
}

/** How one server instance is built: the options checked, and what the serving entry owns. */
export interface ServerSettings {
  name: string;
  version: string;
  instructions?: string;
  log?: ClientLog;
  rounds: ConfirmationRounds;
  confirmationTimeoutSeconds: number;
  toolListTtlMs: number;
}

const DEFAULT_CONFIRMATION_TIMEOUT_SECONDS = 600;
const DEFAULT_TOOL_LIST_TTL_MS = 60_000;
const MIN_STATE_KEY_BYTES = 32;

/** Checks {@link McpServerOptions} once, drawing the state key when none is given. */
export function serverSettings(options: McpServerOptions): ServerSettings {
  const {
    name = 'nexus',
    version = packageJson.version,
    instructions,
    log,
    stateKey = randomBytes(MIN_STATE_KEY_BYTES),
    confirmationTimeoutSeconds = DEFAULT_CONFIRMATION_TIMEOUT_SECONDS,
    toolListTtlMs = DEFAULT_TOOL_LIST_TTL_MS,
  } = options;
  const keyBytes = typeof stateKey === 'string' ? Buffer.byteLength(stateKey) : stateKey.byteLength;
  expectOption(keyBytes >= MIN_STATE_KEY_BYTES, 'stateKey', `at least ${MIN_STATE_KEY_BYTES} bytes`, '<hidden>');
  expectOption(
    isPositiveNumber(confirmationTimeoutSeconds),
    'confirmationTimeoutSeconds',
    'a positive number of seconds',
    confirmationTimeoutSeconds,
  );
  expectOption(Number.isSafeInteger(toolListTtlMs) && toolListTtlMs >= 0, 'toolListTtlMs', 'a whole number of milliseconds', toolListTtlMs);
  return {
    name,
    version,
    ...(instructions ? { instructions } : {}),
    ...(log ? { log } : {}),
    rounds: new ConfirmationRounds(stateKey, confirmationTimeoutSeconds),
    confirmationTimeoutSeconds,
    toolListTtlMs,
  };
}

/** Which protocol era an instance serves, and whether it follows the registry's changes itself. */
export interface ServerRole {
  era: 'legacy' | 'modern';
  /** `false` when the serving entry announces changes for every instance (per-request HTTP instances). */
  followRegistry: boolean;
}

/** Builds one server instance; {@link createMcpServer}, {@link serveStdio} and {@link serveHttp} use it. */
export function buildMcpServer(registry: SkillRegistry, settings: ServerSettings, role: ServerRole): Server {
  const { name, version, instructions, rounds } = settings;
  const log = role.era === 'legacy' ? settings.log : undefined;
  const server = new Server(
    { name, version },
    {
      capabilities: { tools: { listChanged: true }, ...documentCapabilities(registry), ...(log ? { logging: {} } : {}) },
      ...(instructions ? { instructions } : {}),
      cacheHints: { 'tools/list': { ttlMs: settings.toolListTtlMs, cacheScope: 'private' } },
      requestState: { verify: rounds.verify },
      inputRequired: { roundTimeoutMs: settings.confirmationTimeoutSeconds * 1000 },
    },
  );
  const stopFollowingTools = role.followRegistry
    ? registry.onChange(() => {
        if (server.transport) void server.sendToolListChanged().catch(() => undefined);
      })
    : () => {};
  const stopFollowingDocuments = role.followRegistry
    ? followDocuments(registry, {
        promptsChanged: () => void (server.transport && server.sendPromptListChanged().catch(() => undefined)),
        resourcesChanged: () => void (server.transport && server.sendResourceListChanged().catch(() => undefined)),
      })
    : () => {};
  const logging = log ? followClientLog(server, log) : undefined;
  // The SDK has one `onclose` slot, which its serving entries and callers use: ours stays in it and
  // runs theirs. Entries chain to the handler they found there, ours: the guard ends that loop.
  let onclose: (() => void) | undefined;
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    try {
      stopFollowingTools();
      stopFollowingDocuments();
      logging?.stop();
      onclose?.();
    } finally {
      closing = false;
    }
  };
  Object.defineProperty(server, 'onclose', {
    get: () => close,
    set: (handler: (() => void) | undefined) => {
      onclose = handler === close ? undefined : handler;
    },
  });

  server.setRequestHandler('tools/list', async (_request, ctx) => {
    logging?.start(ctx.mcpReq.notify);
    await registry.refresh();
    const permissions = registry.services.getPermissions();
    const definitions = permissions
      ? registry.getDefinitionsForPermissions(permissions, { format: 'mcp' })
      : registry.getDefinitions({ format: 'mcp' });
    return { tools: definitions as Tool[] };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    logging?.start(ctx.mcpReq.notify);
    const { name: tool, arguments: args = {}, _meta } = request.params;
    const { signal } = ctx.mcpReq;
    const onProgress = forwardProgress(_meta?.progressToken, ctx.mcpReq);
    const caller = mcpCaller(server, ctx);
    const execute = (confirm?: ConfirmFunction) =>
      registry.execute(tool, args, {
        signal,
        ...(onProgress ? { onProgress } : {}),
        ...(confirm ? { confirm } : {}),
        ...(caller ? { caller } : {}),
      });
    const outputSchema = registry.getSpec(tool)?.outputSchema;
    if (!ConfirmationRounds.canAsk(server, ctx)) return project(server, await execute(), outputSchema);
    const call = { tool, args, policyDigest: policyDigest(registry.services.getPermissions()) };
    const outcome = await rounds.run(call, ctx, execute);
    return isInputRequiredResult(outcome) ? outcome : project(server, outcome, outputSchema);
  });

  serveDocuments(server, registry);
  return server;
}

function project(server: Server, result: ToolResult, outputSchema: JsonSchemaObject | undefined): CallToolResult {
  return server.projectCallToolResult(toCallToolResult(result, outputSchema), outputSchema);
}

/**
 * Creates an MCP server (the official SDK's low-level `Server`, v2) exposing a registry's skills,
 * for one 2025-era connection (`server.connect(transport)`); {@link serveStdio} and
 * {@link serveHttp} also serve 2026-07-28 clients, and are what hosts normally use.
 * - `tools/list` lists the skills the registry's permission policy enables, with their JSON
 *   Schema, `readOnlyHint` / `destructiveHint` annotations, and the `title`, `outputSchema`,
 *   `idempotentHint` and `openWorldHint` a skill declares;
 * - `tools/call` runs through `registry.execute` only — validation, permission gate and
 *   confirmation included. The output comes back as text and object `data` as
 *   `structuredContent` (a failure: `isError: true`, its message, and its data only when the tool
 *   declares no `outputSchema`); the client's cancellation aborts the skill's signal;
 *   the skill's progress becomes `notifications/progress` when the client sent a progress token.
 * - a confirmation goes to the client that made the call, when it supports elicitation: as an
 *   `input_required` answer with a signed `requestState` to a 2026-07-28 client, which retries
 *   with the answer; as `elicitation/create` to a 2025-era one (the SDK's shim of the same
 *   rounds). Otherwise the registry's `confirm` service decides, as before.
 * - the server declares `tools.listChanged`: each change of the registry's skills (a skill
 *   package edited on disk, a family that changed) sends `notifications/tools/list_changed`, and
 *   `tools/list` first lets changing families look for changes (`registry.refresh()`);
 * - with a `log`, the server declares `logging` and sends the client the log's messages as
 *   `notifications/message`: those written so far with the answer to its first `tools/list` or
 *   `tools/call`, then each new one as it is written.
 *
 * One server serves one connection, and stops following the registry when it closes (an
 * `onclose` set on it still runs). Roots the client offers are never consulted: the registry's
 * policy alone decides what the tools may touch.
 */
export function createMcpServer(registry: SkillRegistry, options: McpServerOptions = {}): Server {
  return buildMcpServer(registry, serverSettings(options), { era: 'legacy', followRegistry: true });
}
