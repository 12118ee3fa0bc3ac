import { formatSchemaIssues, InvalidOptionError, PERMISSION_LEVELS, type PermissionLevel } from '@nexus/core';
import { z } from 'zod';

/** A server's default per-call time limit without progress, in seconds. */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;
/** How long a call may run in all while the server reports progress, by default, in seconds. */
export const DEFAULT_MCP_MAX_TOTAL_SECONDS = 600;

const nexusFields = {
  /** Raises the lowest permission level at which the server's tools are offered (default `trusted`). */
  level: z.enum(PERMISSION_LEVELS as [PermissionLevel, ...PermissionLevel[]]).optional(),
  /** The server changes nothing: its tools that say `readOnlyHint: true` are offered at `sandboxed`. */
  readOnly: z.boolean().optional(),
  /** Time limit of one call without progress from the server, in seconds (default 60). */
  timeoutSeconds: z.number().positive().finite().optional(),
  /** Time limit of one call however much progress the server reports, in seconds (default 600). */
  maxTotalSeconds: z.number().positive().finite().optional(),
};

const stdioConfig = z.strictObject({
  /** As MCP clients write it; the transport follows from `command`. */
  type: z.literal('stdio').optional(),
  command: z.string().min(1, 'Expected a program to start'),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().min(1).optional(),
  ...nexusFields,
});

const httpConfig = z.strictObject({
  /** As MCP clients write it for Streamable HTTP; the transport follows from `url`. */
  type: z.literal('http').optional(),
  url: z.url({ protocol: /^https?$/, error: 'Expected an absolute http or https URL' }),
  headers: z.record(z.string(), z.string()).optional(),
  /** The server wants OAuth: Nexus signs in (`nexus mcp-servers login <name>`) and sends the tokens it got. */
  auth: z.literal('oauth').optional(),
  /** With `auth: "oauth"`: a client the authorization server knows (else Nexus registers itself), the scope to ask for. */
  oauth: z.strictObject({ clientId: z.string().min(1).optional(), scope: z.string().min(1).optional() }).optional(),
  ...nexusFields,
});

const mcpServerConfig = z.union([stdioConfig, httpConfig], {
  error: 'Expected either `command` (a stdio server) or `url` (a Streamable HTTP server), not both',
});

/** A server started as a child process, spoken to over its stdin and stdout. */
export type McpStdioServerConfig = z.infer<typeof stdioConfig>;
/** A server reached over Streamable HTTP. */
export type McpHttpServerConfig = z.infer<typeof httpConfig>;
/** One MCP server to import: stdio (`command`, …) or Streamable HTTP (`url`, …), plus the Nexus fields. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Validates a server's configuration; throws an {@link InvalidOptionError} naming every problem. */
export function parseMcpServerConfig(name: string, config: unknown): McpServerConfig {
  const hasBoth = typeof config === 'object' && config !== null && 'command' in config && 'url' in config;
  const parsed = hasBoth ? undefined : mcpServerConfig.safeParse(config);
  if (parsed?.success) return parsed.data;
  const detail = parsed ? formatSchemaIssues(bestIssues(parsed.error, config)) : 'set either `command` or `url`, not both';
  throw new InvalidOptionError(`Invalid configuration of MCP server "${name}": ${detail}.`, { option: name });
}

/** The issues of the branch the configuration was meant for, so messages do not talk about both. */
function bestIssues(error: z.ZodError, config: unknown): z.core.$ZodIssue[] {
  const union = error.issues.find((issue) => issue.code === 'invalid_union' && issue.path.length === 0);
  if (union?.code !== 'invalid_union' || typeof config !== 'object' || config === null) return error.issues;
  const branch = 'url' in config ? 1 : 'command' in config ? 0 : undefined;
  return branch === undefined ? error.issues : (union.errors[branch] ?? error.issues);
}

/** Whether a configuration names a stdio server. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return 'command' in config;
}
