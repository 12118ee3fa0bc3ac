import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SkillRegistry } from '@nexus/registry';
import { createMcpServer, type McpServerOptions } from './create-mcp-server.js';

/** Options of {@link serveStdio}. */
export interface StdioServeOptions extends McpServerOptions {
  /** Where client messages arrive (default `process.stdin`). */
  stdin?: Readable;
  /** Where answers go (default `process.stdout`). Nothing else may write to it. */
  stdout?: Writable;
}

/** A server connected over stdio. */
export interface McpStdioServer {
  readonly server: Server;
  /** Settles when the connection ends: the client closed stdin, or {@link close} was called. */
  readonly closed: Promise<void>;
  /** Ends the connection; running tool calls are cancelled. */
  close(): Promise<void>;
}

/**
 * Serves a registry over stdio, newline-delimited JSON-RPC — the transport MCP clients use when
 * they launch the server themselves. When the client closes stdin the connection ends and every
 * running tool call is cancelled.
 */
export async function serveStdio(registry: SkillRegistry, options: StdioServeOptions = {}): Promise<McpStdioServer> {
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  const server = createMcpServer(registry, serverOptions);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const close = () => server.close();
  const onEnd = () => void close();
  stdin.once('end', onEnd);
  void closed.then(() => stdin.off('end', onEnd));
  await server.connect(new StdioServerTransport(stdin, stdout));
  return { server, closed, close };
}
