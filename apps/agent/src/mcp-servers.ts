import { ConfigError, formatSchemaIssues } from '@nexus/core';
import {
  type ImportedMcpServer,
  type ImportMcpServerOptions,
  importMcpServer,
  type McpServerConfig,
  type McpServerStatus,
  parseMcpServerConfig,
} from '@nexus/mcp';
import { z } from 'zod';

/** One `mcpServers` entry of the user's config file: an MCP client's server entry, plus `enabled`. */
export type McpServerEntry = McpServerConfig & {
  /** `false` keeps the entry without starting the server (default `true`). */
  enabled?: boolean;
};

/** A configured server in one `nexus` run: started, or why not. */
export interface McpServerRun {
  readonly name: string;
  readonly entry: McpServerEntry;
  /** The running server, when it could be imported. */
  readonly server?: ImportedMcpServer;
  /** Why it could not be imported. */
  readonly error?: string;
}

/** What `nexus mcp-servers list` shows: a server's status, or `disabled` for one not started. */
export type McpServerRow = Omit<McpServerStatus, 'state'> & { state: McpServerStatus['state'] | 'disabled' };

const nexusFields = z.looseObject({ enabled: z.boolean().optional() });

/** Checks the `mcpServers` of a config file; the error names the file and the server's field. */
export function checkMcpServers(servers: Record<string, unknown>, file: string): void {
  for (const [name, entry] of Object.entries(servers)) {
    const field = `mcpServers.${name}`;
    const checked = nexusFields.safeParse(entry);
    if (!checked.success) throw new ConfigError(`${file}: \`${field}\`: ${formatSchemaIssues(checked.error.issues)}`);
    const { enabled: _enabled, ...config } = checked.data;
    try {
      parseMcpServerConfig(name, config);
    } catch (error) {
      throw new ConfigError(`${file}: \`${field}\`: ${(error as Error).message}`, { cause: error });
    }
  }
}

/**
 * Starts every enabled server at once (the slowest decides how long it takes, not the sum); a
 * server that cannot be imported is kept with its error, so the others still serve their tools.
 */
export function startMcpServers(
  entries: Readonly<Record<string, McpServerEntry>>,
  options: ImportMcpServerOptions = {},
): Promise<McpServerRun[]> {
  return Promise.all(
    Object.entries(entries).map(async ([name, entry]): Promise<McpServerRun> => {
      if (entry.enabled === false) return { name, entry };
      const { enabled: _enabled, ...config } = entry;
      try {
        return { name, entry, server: await importMcpServer(name, config as McpServerConfig, options) };
      } catch (error) {
        return { name, entry, error: (error as Error).message };
      }
    }),
  );
}

/** A run's row for `nexus mcp-servers list`. */
export function mcpServerRow({ name, entry, server, error }: McpServerRun): McpServerRow {
  if (server) return server.status;
  const transport = 'command' in entry ? 'stdio' : 'http';
  if (entry.enabled === false) return { name, transport, state: 'disabled', toolCount: 0 };
  return { name, transport, state: 'failed', toolCount: 0, ...(error === undefined ? {} : { lastError: error }) };
}
