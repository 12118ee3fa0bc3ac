import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio as serveStdioEntry } from '@modelcontextprotocol/server/stdio';
import type { SkillRegistry } from '@nexus/registry';
import { buildMcpServer, type McpServerOptions, serverSettings } from './create-mcp-server.js';
import { JsonRpcLines } from './json-rpc-lines.js';

/** Options of {@link serveStdio}. */
export interface StdioServeOptions extends McpServerOptions {
  /** Where client messages arrive (default `process.stdin`). */
  stdin?: Readable;
  /** Where answers go (default `process.stdout`). Nothing else may write to it. */
  stdout?: Writable;
}

/** A server connected over stdio. */
export interface McpStdioServer {
  /** Settles when the connection ends: the client closed stdin, or {@link close} was called. */
  readonly closed: Promise<void>;
  /** Ends the connection; running tool calls are cancelled. */
  close(): Promise<void>;
}

/**
 * The SDK's stdio transport reading with {@link JsonRpcLines} (errors reported and closing as the
 * SDK's reader does), and telling when it has closed (the SDK's entry owns its `onclose`).
 */
class WireTransport extends StdioServerTransport {
  readonly closed: Promise<void>;
  #resolveClosed: () => void = () => {};
  readonly #lines = new JsonRpcLines();

  constructor(stdin: Readable, stdout: Writable) {
    super(stdin, stdout);
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  override _ondata = (chunk: Buffer): void => {
    try {
      this.#lines.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      this.close().catch(() => {});
      return;
    }
    for (;;) {
      try {
        const message = this.#lines.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  };

  override async close(): Promise<void> {
    await super.close();
    this.#lines.clear();
    this.#resolveClosed();
  }
}

/**
 * Serves a registry over stdio, newline-delimited JSON-RPC — the transport MCP clients use when
 * they launch the server themselves. The client's opening message decides the protocol revision
 * for the connection: `initialize` (2025-11-25 and earlier) or `server/discover` (2026-07-28);
 * either way one {@link createMcpServer}-style instance serves it. When the client closes stdin
 * the connection ends and every running tool call is cancelled.
 */
export async function serveStdio(registry: SkillRegistry, options: StdioServeOptions = {}): Promise<McpStdioServer> {
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  const settings = serverSettings(serverOptions);
  const transport = new WireTransport(stdin, stdout);
  const handle = serveStdioEntry(({ era }) => buildMcpServer(registry, settings, { era, followRegistry: true }), { transport });
  return { closed: transport.closed, close: () => handle.close() };
}
