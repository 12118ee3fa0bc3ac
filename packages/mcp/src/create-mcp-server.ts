import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SkillRegistry } from '@nexus/registry';
import packageJson from '../package.json' with { type: 'json' };
import { type ClientLog, followClientLog } from './client-log.js';
import { confirmWithElicitation } from './confirm-with-elicitation.js';
import { forwardProgress } from './progress-forwarder.js';
import { toCallToolResult } from './tool-call-result.js';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients in `initialize` (default `nexus`). */
  name?: string;
  /** Server version reported to clients (default the version of `@nexus/mcp`). */
  version?: string;
  /** Text clients may show their model about how to use the tools. */
  instructions?: string;
  /** Messages for the client's log: the server then declares `logging` and sends them (see {@link ClientLog}). */
  log?: ClientLog;
}

/**
 * Creates an MCP server (the official SDK's low-level `Server`) exposing a registry's skills:
 * - `tools/list` lists the skills the registry's permission policy enables, with their JSON
 *   Schema and `readOnlyHint` / `destructiveHint` annotations;
 * - `tools/call` runs through `registry.execute` only — validation, permission gate and
 *   confirmation included. A failed result comes back with `isError: true` and its message,
 *   object `data` as `structuredContent`; the client's cancellation aborts the skill's signal;
 *   the skill's progress becomes `notifications/progress` when the client sent a progress token.
 *
 * - the server declares `tools.listChanged`: each change of the registry's skills (a skill
 *   package edited on disk, a family that changed) sends `notifications/tools/list_changed`, and
 *   `tools/list` first lets changing families look for changes (`registry.refresh()`);
 * - with a `log`, the server declares `logging` and sends the client the log's messages as
 *   `notifications/message`: those written so far with the answer to its first `tools/list` or
 *   `tools/call` (over HTTP the stream for messages of the server's own opens only after
 *   `initialize`), then each new one as it is written.
 *
 * The server is not connected; pass it a transport (`server.connect(transport)`), or use
 * {@link serveStdio} / {@link serveHttp}. One server serves one connection, and stops following
 * the registry when it closes (an `onclose` set on it still runs). Roots the client offers are
 * never consulted: the registry's policy alone decides what the tools may touch.
 */
export function createMcpServer(registry: SkillRegistry, options: McpServerOptions = {}): Server {
  const { name = 'nexus', version = packageJson.version, instructions, log } = options;
  const server = new Server(
    { name, version },
    { capabilities: { tools: { listChanged: true }, ...(log ? { logging: {} } : {}) }, ...(instructions ? { instructions } : {}) },
  );
  const stopFollowing = registry.onChange(() => {
    if (server.transport) void server.sendToolListChanged().catch(() => undefined);
  });
  const logging = log ? followClientLog(server, log) : undefined;
  // The SDK has one `onclose` slot, which serveStdio and callers use: keep theirs running after ours.
  let onclose: (() => void) | undefined;
  Object.defineProperty(server, 'onclose', {
    get: () => () => {
      stopFollowing();
      logging?.stop();
      onclose?.();
    },
    set: (handler: (() => void) | undefined) => {
      onclose = handler;
    },
  });

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    logging?.start(extra);
    await registry.refresh();
    const permissions = registry.services.getPermissions();
    const definitions = permissions
      ? registry.getDefinitionsForPermissions(permissions, { format: 'mcp' })
      : registry.getDefinitions({ format: 'mcp' });
    return { tools: definitions as Tool[] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    logging?.start(extra);
    const { name: tool, arguments: args = {}, _meta } = request.params;
    const onProgress = forwardProgress(_meta?.progressToken, extra);
    const { requestId, signal } = extra;
    const confirm = confirmWithElicitation(server, { requestId, signal });
    const result = await registry.execute(tool, args, { signal, ...(onProgress ? { onProgress } : {}), ...(confirm ? { confirm } : {}) });
    return toCallToolResult(result);
  });

  return server;
}
