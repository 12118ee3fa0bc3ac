import { once } from 'node:events';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type Service, startService } from '@nexus/process';

/** Largest message a server may send (one result of up to 64 MiB). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** How to start a stdio server. */
export interface ProcessGroupTransportOptions {
  command: string;
  args: readonly string[];
  /** Added to the sanitised environment; nothing else is inherited. */
  env: Record<string, string>;
  cwd?: string | undefined;
}

/**
 * The SDK's stdio transport over `@nexus/process`'s `startService`: the server runs in its own
 * process group with the sanitised environment plus its entry's `env`, and `close()` ends the
 * whole group (SIGTERM, then SIGKILL), so the grandchildren a server starts end with it — also
 * when the host exits.
 */
export class ProcessGroupTransport implements Transport {
  readonly #options: ProcessGroupTransportOptions;
  readonly #buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  #service: Service | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(options: ProcessGroupTransportOptions) {
    this.#options = options;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.#service?.pid;
  }

  async start(): Promise<void> {
    const { command, args, env, cwd } = this.#options;
    const service = await startService(command, args, { env, ...(cwd === undefined ? {} : { cwd }) });
    this.#service = service;
    void service.closed.then(() => {
      this.#service = undefined;
      this.onclose?.();
    });
    service.stdin.on('error', (error) => this.onerror?.(error));
    service.stdout.on('data', (chunk: Buffer) => {
      try {
        this.#buffer.append(chunk);
        for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#service?.stdin;
    if (!stdin) throw new Error('The MCP server is not running.');
    if (!stdin.write(serializeMessage(message))) await once(stdin, 'drain');
  }

  async close(): Promise<void> {
    await this.#service?.stop();
    this.#buffer.clear();
  }
}
