import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Largest message a server may send (one result of up to 64 MiB). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const KILL_GRACE_MS = 2000;

/** How to start a stdio server. */
export interface ProcessGroupTransportOptions {
  command: string;
  args: readonly string[];
  /** The child's whole environment (nothing is inherited beyond it). */
  env: Record<string, string>;
  cwd?: string | undefined;
}

/**
 * The SDK's stdio transport, except that the server runs in its own process group with exactly
 * the environment given, and `close()` ends the whole group (SIGTERM, then SIGKILL), so the
 * grandchildren a server starts (`npx` → `node`, a browser) end with it — also when the host exits.
 */
export class ProcessGroupTransport implements Transport {
  readonly #options: ProcessGroupTransportOptions;
  readonly #buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  #child: ChildProcess | undefined;
  readonly #endWithHost = () => this.#child?.pid && killGroup(this.#child.pid, 'SIGKILL');
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(options: ProcessGroupTransportOptions) {
    this.#options = options;
  }

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(): Promise<void> {
    const { command, args, env, cwd } = this.#options;
    const child = spawn(command, args, { env, cwd, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    this.#child = child;
    process.on('exit', this.#endWithHost);
    child.on('close', () => {
      process.off('exit', this.#endWithHost);
      this.#child = undefined;
      this.onclose?.();
    });
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => {
      try {
        this.#buffer.append(chunk);
        for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    await Promise.race([
      once(child, 'spawn'),
      once(child, 'error').then(([error]) => {
        throw error;
      }),
    ]);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin) throw new Error('The MCP server is not running.');
    if (!stdin.write(serializeMessage(message))) await once(stdin, 'drain');
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child?.pid) return;
    const closed = once(child, 'close');
    child.stdin?.end();
    killGroup(child.pid, 'SIGTERM');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS).unref())]);
    // Whatever of the group ignored SIGTERM (the leader or a grandchild) ends now.
    killGroup(child.pid, 'SIGKILL');
    this.#buffer.clear();
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}
