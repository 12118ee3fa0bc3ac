import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, ListToolsResultSchema, McpError, type Tool, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CancelledError,
  type ConfirmFunction,
  defineSkill,
  expectOption,
  isPositiveNumber,
  levelAtLeast,
  NexusError,
  PermissionDeniedError,
  type PermissionLevel,
  type ServiceContainer,
  type SkillFamily,
  type SkillSpec,
  TimeoutError,
} from '@nexus/core';
import { z } from 'zod';
import packageJson from '../package.json' with { type: 'json' };
import { importedToolNames } from './imported-tool-name.js';
import { fromCallToolResult, MAX_IMPORTED_OUTPUT_BYTES } from './imported-tool-result.js';
import { normaliseInputSchema } from './imported-tool-schema.js';
import { DEFAULT_MCP_TIMEOUT_SECONDS, isStdioConfig, type McpServerConfig, parseMcpServerConfig } from './mcp-server-config.js';
import { ProcessGroupTransport } from './process-group-transport.js';

/** Options of {@link importMcpServer}. */
export interface ImportMcpServerOptions {
  /** Most bytes of text one call's output keeps; the rest is cut with a marker (default 1 MiB). */
  maxOutputBytes?: number;
}

/** A connected MCP server: its tools as a skill family, and how to end it. */
export interface ImportedMcpServer {
  /** The server's tools as skills named `mcp__<server>__<tool>`, ready for `registry.use`. */
  readonly family: SkillFamily;
  /** Ends the connection; a stdio server's whole process group is ended. */
  close(): Promise<void>;
}

/** The server could not be started, reached or listed. */
export class McpServerUnavailableError extends NexusError {
  static override readonly brand: symbol = Symbol.for('@nexus/mcp/McpServerUnavailableError');
  static override readonly code = 'MCP_SERVER_UNAVAILABLE';
  static override readonly kind = 'execution_failed';
}

/**
 * Connects to an MCP server — a stdio child process started with the sanitised environment plus
 * the `env` its entry names, or a Streamable HTTP endpoint — lists its tools and returns them as a
 * permission-gated {@link SkillFamily}. The server starts here, at the first `tools/list`, and runs
 * until `close()` (or until the host exits).
 *
 * Gating: the tools need `trusted` (or the server's `level`, when higher); at `sandboxed` a tool is
 * offered only when the server is `readOnly: true` and the tool says `readOnlyHint: true`. Below
 * `yolo`, the first call to the server from an agent's services asks `use MCP server <name>`; a
 * refusal is `forbidden` and nothing reaches the server.
 */
export async function importMcpServer(
  name: string,
  config: McpServerConfig,
  options: ImportMcpServerOptions = {},
): Promise<ImportedMcpServer> {
  expectOption(typeof name === 'string' && name.length > 0, 'name', 'a non-empty string', name);
  const { maxOutputBytes = MAX_IMPORTED_OUTPUT_BYTES } = options;
  expectOption(isPositiveNumber(maxOutputBytes), 'maxOutputBytes', 'a positive number of bytes', maxOutputBytes);
  const server = parseMcpServerConfig(name, config);
  const timeoutMs = (server.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS) * 1000;
  const client = new Client({ name: 'nexus', version: packageJson.version });
  try {
    await client.connect(createTransport(server), { timeout: timeoutMs });
    const tools = await listAllTools(client, timeoutMs);
    const family = buildFamily(name, server, tools, { client, timeoutMs, maxOutputBytes });
    return { family, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw new McpServerUnavailableError(`MCP server "${name}" could not be imported: ${describeError(error)}`, { cause: error });
  }
}

function createTransport(server: McpServerConfig): Transport {
  if (isStdioConfig(server)) {
    const { command, args = [], env = {}, cwd } = server;
    return new ProcessGroupTransport({ command, args, env, cwd });
  }
  return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers ?? {} } });
}

/**
 * `tools/list` as servers really answer it: the SDK's `listTools` refuses the whole list when one
 * tool's input schema is not `{ type: 'object', … }` (a bare top-level `anyOf`, as schema libraries
 * write unions), so the schemas are taken as they come and normalised per tool.
 */
const LenientListToolsResultSchema = ListToolsResultSchema.extend({
  tools: z.array(ToolSchema.extend({ inputSchema: z.unknown() })),
});

async function listAllTools(client: Client, timeoutMs: number): Promise<LenientTool[]> {
  const tools: LenientTool[] = [];
  let cursor: string | undefined;
  do {
    const params = cursor === undefined ? {} : { cursor };
    const page = await client.request({ method: 'tools/list', params }, LenientListToolsResultSchema, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

type LenientTool = Omit<Tool, 'inputSchema'> & { inputSchema: unknown };

interface Connection {
  client: Client;
  timeoutMs: number;
  maxOutputBytes: number;
}

function buildFamily(server: string, config: McpServerConfig, tools: readonly LenientTool[], connection: Connection): SkillFamily {
  const names = importedToolNames(
    server,
    tools.map((tool) => tool.name),
  );
  const approvals = new WeakMap<ServiceContainer, Promise<boolean>>();
  const approve = (services: ServiceContainer, tool: string, confirm: ConfirmFunction | undefined): Promise<boolean> => {
    // Only a read-only server's read-only tools run at `sandboxed`; they need nobody's approval.
    if (services.getPermissionLevel() === 'sandboxed') return Promise.resolve(true);
    let approval = approvals.get(services);
    if (!approval) {
      approval = services.confirm({ tool, action: `use MCP server ${server}` }, confirm);
      approvals.set(services, approval);
      // A refusal is not remembered: the next call asks again.
      approval.then((granted) => granted || approvals.delete(services)).catch(() => approvals.delete(services));
    }
    return approval;
  };
  const skills = tools.map((tool, index) => importedToolSkill(server, config, tool, names[index] as string, connection, approve));
  return { name: `mcp__${server}`, skills };
}

function importedToolSkill(
  server: string,
  config: McpServerConfig,
  tool: LenientTool,
  name: string,
  { client, timeoutMs, maxOutputBytes }: Connection,
  approve: (services: ServiceContainer, tool: string, confirm: ConfirmFunction | undefined) => Promise<boolean>,
): SkillSpec {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const offeredSandboxed = config.readOnly === true && readOnly;
  const minimumLevel = maxLevel(offeredSandboxed ? 'sandboxed' : 'trusted', config.level ?? 'sandboxed');
  return defineSkill({
    name,
    description: tool.description || tool.title || `${tool.name} (from the MCP server "${server}")`,
    parameters: normaliseInputSchema(tool.inputSchema),
    readOnly,
    destructive: !readOnly && tool.annotations?.destructiveHint !== false,
    minimumLevel,
    create:
      (services) =>
      async (args, { signal, confirm }) => {
        if (!(await approve(services, name, confirm))) {
          throw new PermissionDeniedError(`Using the MCP server "${server}" was not approved; nothing was sent to it.`);
        }
        try {
          const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
            timeout: timeoutMs,
            ...(signal ? { signal } : {}),
          });
          return fromCallToolResult(result as Parameters<typeof fromCallToolResult>[0], maxOutputBytes);
        } catch (error) {
          throw callError(server, tool.name, error, signal, timeoutMs);
        }
      },
  });
}

function maxLevel(first: PermissionLevel, second: PermissionLevel): PermissionLevel {
  return levelAtLeast(first, second) ? first : second;
}

function callError(server: string, tool: string, error: unknown, signal: AbortSignal | undefined, timeoutMs: number): NexusError {
  const what = `"${tool}" of the MCP server "${server}"`;
  if (signal?.aborted) return new CancelledError(`Cancelled ${what}; the server was told.`, { cause: error });
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new TimeoutError(`${what} did not answer within ${timeoutMs / 1000} s (the server's \`timeoutSeconds\`).`, {
      timeoutMs,
      cause: error,
    });
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new McpServerUnavailableError(`The MCP server "${server}" closed the connection during ${what} (it exited or crashed).`, {
      cause: error,
    });
  }
  return new NexusError(`${what} failed: ${describeError(error)}`, { cause: error, kind: 'execution_failed' });
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
