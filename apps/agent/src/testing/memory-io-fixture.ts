// An in-memory Io for running the CLI inside a test process. Not part of the app.
import { EventEmitter, once } from 'node:events';
import { PassThrough } from 'node:stream';
import { type TestDir, writeTree } from '@nexus/test-utils';
import type { Io } from '../io.js';
import { runCli } from '../run-cli.js';

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

/** What the CLI wrote and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI in this process inside a test folder laid out as `<cwd>/` (the working directory),
 * `config/` (`XDG_CONFIG_HOME`) and `state/` (`XDG_STATE_HOME`).
 */
export async function runNexusIn(dir: TestDir, args: readonly string[], cwd = 'project'): Promise<CliRun> {
  const memory = memoryIo({ cwd: dir.join(cwd), configHome: dir.join('config'), env: { XDG_STATE_HOME: dir.join('state') } });
  const code = await runCli(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

/** Writes the user config file (`config/nexus/nexus.config.json`) of such a test folder. */
export function writeUserConfig(dir: TestDir, config: object): Promise<void> {
  return writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
}
