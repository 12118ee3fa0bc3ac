import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import { FileOAuthClient } from '@nexus/auth';
import {
  type ConfirmFunction,
  defineSkill,
  expectOption,
  isPositiveNumber,
  type JsonSchemaObject,
  levelAtLeast,
  nexusStateDir,
  PermissionDeniedError,
  type PermissionLevel,
  type ServiceContainer,
  type SkillSpec,
} from '@nexus/core';
import type { ChangingSkillFamily } from '@nexus/registry';
import { answerElicitation } from './answer-elicitation.js';
import { importedToolNames } from './imported-tool-name.js';
import { fromCallToolResult, MAX_IMPORTED_OUTPUT_BYTES } from './imported-tool-result.js';
import { normaliseInputSchema } from './imported-tool-schema.js';
import { describeError, type ListedTool, McpConnection, type McpServerState, McpServerUnavailableError } from './mcp-connection.js';
import {
  DEFAULT_MCP_MAX_TOTAL_SECONDS,
  DEFAULT_MCP_TIMEOUT_SECONDS,
  isStdioConfig,
  type McpServerConfig,
  parseMcpServerConfig,
} from './mcp-server-config.js';

/** Options of {@link importMcpServer}. */
export interface ImportMcpServerOptions {
  /** Most bytes of text one call's output keeps; the rest is cut with a marker (default 1 MiB). */
  maxOutputBytes?: number;
  /**
   * Where a server with `auth: "oauth"` keeps its client and tokens: `<oauthDirectory>/<name>.json`
   * (default `<nexusStateDir()>/oauth`). See {@link mcpOAuthClient}.
   */
  oauthDirectory?: string;
}

/**
 * The OAuth client of a Streamable HTTP server configured with `auth: "oauth"` (`undefined` for
 * any other): its `login(openUrl)` signs in once — what `nexus mcp-servers login <name>` runs —
 * and the import sends the tokens it keeps, refreshed when they run out.
 */
export function mcpOAuthClient(
  name: string,
  config: McpServerConfig,
  options: Pick<ImportMcpServerOptions, 'oauthDirectory'> = {},
): FileOAuthClient | undefined {
  if (isStdioConfig(config) || config.auth !== 'oauth') return undefined;
  const { oauthDirectory = join(nexusStateDir(), 'oauth') } = options;
  const { clientId, scope } = config.oauth ?? {};
  return new FileOAuthClient({
    serverUrl: config.url,
    file: join(oauthDirectory, `${name}.json`),
    ...(clientId ? { clientId } : {}),
    ...(scope ? { scope } : {}),
  });
}

/** What `nexus mcp-servers list` shows of a server. */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  state: McpServerState;
  /** Tools of the last listing. */
  toolCount: number;
  /** Why it last stopped or could not be started, or why a registry refused its new tools. */
  lastError?: string;
}

/** A connected MCP server: its tools as a skill family, its state, and how to end it. */
export interface ImportedMcpServer {
  /**
   * The server's tools as skills named `mcp__<server>__<tool>`, ready for `registry.use`: a
   * changing family, so a registry that uses it follows the server. `skills` is the last listing;
   * when the server sends `notifications/tools/list_changed`, the tools are read again at once and
   * the family's listeners (registries) are told.
   */
  readonly family: ChangingSkillFamily;
  /** Name, transport, state, tool count and last error. */
  readonly status: McpServerStatus;
  /**
   * The tools as skills, read again from the server when it sent `notifications/tools/list_changed`
   * or was restarted since the last listing; starts a stopped server.
   */
  listTools(): Promise<readonly SkillSpec[]>;
  /** Ends the connection; a stdio server's whole process group is ended. */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server — a stdio child process started with the sanitised environment plus
 * the `env` its entry names, or a Streamable HTTP endpoint — lists its tools and returns them as a
 * permission-gated {@link ChangingSkillFamily}. The server starts here, at the first `tools/list`,
 * and runs until `close()` (or until the host exits); when it exits, the call that saw it fails, and
 * it is started again at the next call or listing (at most 3 times in 5 minutes, then it is `failed`).
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
  const authProvider = mcpOAuthClient(name, server, options);
  const connection = new McpConnection(name, server, {
    timeoutMs: (server.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS) * 1000,
    maxTotalMs: (server.maxTotalSeconds ?? DEFAULT_MCP_MAX_TOTAL_SECONDS) * 1000,
    ...(authProvider ? { authProvider } : {}),
  });
  try {
    await connection.listTools();
  } catch (error) {
    await connection.close();
    throw new McpServerUnavailableError(`MCP server "${name}" could not be imported: ${describeError(error)}`, { cause: error });
  }
  const toSkills = importedSkills(name, server, connection, maxOutputBytes);
  const listeners = new Set<() => void>();
  let announced = connection.tools;
  /** Tells the listeners when the last listing is not the one they know. */
  const announce = () => {
    if (connection.tools === announced) return;
    announced = connection.tools;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        connection.noteError(`its new tools could not be registered: ${describeError(error)}`);
      }
    }
  };
  /** Reads the tools again if the running server said they changed; never throws, nor starts a stopped server (a call does). */
  const refresh = async () => {
    if (connection.state !== 'running') return;
    await connection.listTools().then(announce, () => undefined);
  };
  connection.onToolListChanged(() => void refresh());
  return {
    family: {
      name: `mcp__${name}`,
      get skills() {
        return toSkills(connection.tools);
      },
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      refresh,
    },
    get status(): McpServerStatus {
      const { state, lastError } = connection;
      return {
        name,
        transport: isStdioConfig(server) ? 'stdio' : 'http',
        state,
        toolCount: connection.tools.length,
        ...(lastError === undefined ? {} : { lastError }),
      };
    },
    listTools: async () => {
      const tools = await connection.listTools();
      announce();
      return toSkills(tools);
    },
    close: () => {
      listeners.clear();
      return connection.close();
    },
  };
}

type Approve = (services: ServiceContainer, tool: string, confirm: ConfirmFunction | undefined) => Promise<boolean>;

/** Turns listings into skills, once per listing (a tool listed as before keeps its skill), with one approval per agent shared by every listing. */
function importedSkills(server: string, config: McpServerConfig, connection: McpConnection, maxOutputBytes: number) {
  const approvals = new WeakMap<ServiceContainer, Promise<boolean>>();
  const approve: Approve = (services, tool, confirm) => {
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
  let listed: readonly ListedTool[] = [];
  let skills: SkillSpec[] = [];
  return (tools: readonly ListedTool[]): SkillSpec[] => {
    if (tools === listed) return skills;
    const names = importedToolNames(
      server,
      tools.map((tool) => tool.name),
    );
    // A tool listed as before keeps its skill, so a registry following the family sees only what changed.
    const before = new Map(skills.map((spec, index) => [spec.name, { spec, tool: listed[index] }]));
    listed = tools;
    skills = tools.map((tool, index) => {
      const name = names[index] as string;
      const known = before.get(name);
      if (known && isDeepStrictEqual(known.tool, tool)) return known.spec;
      return importedToolSkill(server, config, tool, name, connection, maxOutputBytes, approve);
    });
    return skills;
  };
}

function importedToolSkill(
  server: string,
  config: McpServerConfig,
  tool: ListedTool,
  name: string,
  connection: McpConnection,
  maxOutputBytes: number,
  approve: Approve,
): SkillSpec {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const offeredSandboxed = config.readOnly === true && readOnly;
  const minimumLevel = maxLevel(offeredSandboxed ? 'sandboxed' : 'trusted', config.level ?? 'sandboxed');
  const title = tool.title ?? tool.annotations?.title;
  return defineSkill({
    name,
    ...(title ? { title } : {}),
    description: tool.description || title || `${tool.name} (from the MCP server "${server}")`,
    parameters: normaliseInputSchema(tool.inputSchema),
    readOnly,
    destructive: !readOnly && tool.annotations?.destructiveHint !== false,
    ...(readOnly || tool.annotations?.idempotentHint === true ? { idempotent: true } : {}),
    // MCP's default: a tool reaches beyond the server unless it says otherwise.
    ...(tool.annotations?.openWorldHint === false ? {} : { openWorld: true }),
    // The server's promise for its structuredContent, which becomes the data unchanged.
    ...(tool.outputSchema?.type === 'object' ? { outputSchema: tool.outputSchema as JsonSchemaObject } : {}),
    minimumLevel,
    create: (services) => async (args, context) => {
      if (!(await approve(services, name, context.confirm))) {
        throw new PermissionDeniedError(`Using the MCP server "${server}" was not approved; nothing was sent to it.`);
      }
      const ask = context.confirm ?? services.get('confirm');
      const answer = (params: ElicitRequestParams) => answerElicitation(params, ask, { tool: name, server });
      return fromCallToolResult(await connection.callTool(tool.name, args, context, answer), maxOutputBytes);
    },
  });
}

function maxLevel(first: PermissionLevel, second: PermissionLevel): PermissionLevel {
  return levelAtLeast(first, second) ? first : second;
}
