import { once } from 'node:events';
import { type JSONRPCMessage, serializeMessage, type Transport } from '@modelcontextprotocol/client';
import { type Service, startService } from '@nexus/process';
import { BoundedLineReader, type DroppedLine } from './bounded-line-reader.js';
import { parseJsonRpcMessage } from './json-rpc-lines.js';
import { droppedMessageId, MAX_MESSAGE_BYTES, oversizedMessageError, oversizedMessageResponse } from './oversized-message.js';

/** How to start a stdio server. */
export interface ProcessGroupTransportOptions {
  command: string;
  args: readonly string[];
  /** Added to the sanitised environment; nothing else is inherited. */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Largest message accepted from the server (default 64 MiB); a larger one is dropped and its request fails. */
  maxMessageBytes?: number;
}

/**
 * The SDK's stdio transport over `@nexus/process`'s `startService`: the server runs in its own
 * process group with the sanitised environment plus its entry's `env`, and `close()` ends the
 * whole group (SIGTERM, then SIGKILL), so the grandchildren a server starts end with it — also
 * when the host exits.
 */
export class ProcessGroupTransport implements Transport {
  readonly #options: ProcessGroupTransportOptions;
  readonly #reader: BoundedLineReader;
  #service: Service | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(options: ProcessGroupTransportOptions) {
    this.#options = options;
    const { maxMessageBytes = MAX_MESSAGE_BYTES } = options;
    this.#reader = new BoundedLineReader(maxMessageBytes, {
      line: (line) => {
        try {
          this.onmessage?.(parseJsonRpcMessage(line.toString('utf8')));
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      dropped: (line) => this.#refuse(line, maxMessageBytes),
    });
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
    service.stdout.on('data', (chunk: Buffer) => this.#reader.push(chunk));
  }

  /** A message over the limit was dropped: the request it answered fails, and the connection goes on. */
  #refuse(line: DroppedLine, maxMessageBytes: number): void {
    const id = droppedMessageId(line);
    if (id === undefined) this.onerror?.(oversizedMessageError(line, maxMessageBytes));
    else this.onmessage?.(oversizedMessageResponse(id, line, maxMessageBytes));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#service?.stdin;
    if (!stdin) throw new Error('The MCP server is not running.');
    if (!stdin.write(serializeMessage(message))) await once(stdin, 'drain');
  }

  async close(): Promise<void> {
    await this.#service?.stop();
    this.#reader.clear();
  }
}
