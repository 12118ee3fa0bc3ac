// An in-memory Io for running the CLI inside a test process. Not part of the app.
import { PassThrough } from 'node:stream';
import type { Io } from '../io.js';

/** An {@link Io} whose output is collected; `input` is what stdin delivers, `tty` makes stdin a terminal. */
export function memoryIo(options: { cwd: string; configHome: string; input?: string; tty?: boolean; env?: NodeJS.ProcessEnv }) {
  const { cwd, configHome, input = '', tty = false, env = {} } = options;
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  stdin.end(input);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const io: Io = {
    stdin,
    stdout,
    stderr,
    env: { XDG_CONFIG_HOME: configHome, ...env },
    cwd,
    cliPath: '/opt/nexus/apps/agent/dist/cli.js',
    interrupted: new Promise(() => {}),
  };
  return { io, stdout: () => out, stderr: () => err };
}
