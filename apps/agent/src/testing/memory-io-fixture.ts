// An in-memory Io for running the CLI inside a test process. Not part of the app.
import { EventEmitter, once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Io } from '../io.js';

/**
 * An {@link Io} whose output is collected; `input` is what stdin delivers, `tty` makes stdin a
 * terminal; `interrupt()` acts as a Ctrl-C.
 */
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
  const interrupts = new EventEmitter();
  const io: Io = {
    stdin,
    stdout,
    stderr,
    env: { XDG_CONFIG_HOME: configHome, ...env },
    cwd,
    cliPath: '/opt/nexus/apps/agent/dist/cli.js',
    interrupted: once(interrupts, 'interrupt').then(() => undefined),
    onInterrupt(listener) {
      interrupts.on('interrupt', listener);
      return () => interrupts.off('interrupt', listener);
    },
  };
  return { io, stdout: () => out, stderr: () => err, interrupt: () => interrupts.emit('interrupt') };
}
