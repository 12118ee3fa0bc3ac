import type { Readable, Writable } from 'node:stream';

/** What a command reads and writes: the process's streams and surroundings, replaceable in tests. */
export interface Io {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Directory the command was started in. */
  cwd: string;
  /** Path of the running `cli.js`, for the client configuration snippet in the help. */
  cliPath: string;
  /** Settles when the user asks the process to stop (Ctrl-C, SIGTERM). */
  interrupted: Promise<void>;
  /** Calls `listener` at every Ctrl-C or SIGTERM (a chat cancels a turn at the first, exits at the next); returns the unsubscribe. */
  onInterrupt(listener: () => void): () => void;
}

/** Writes `nexus: warning: <message>` lines to the command's stderr. */
export function warningsTo(io: Io): (message: string) => void {
  return (message) => io.stderr.write(`nexus: warning: ${message}\n`);
}
