import { EventEmitter, once } from 'node:events';
import { runCli } from './run-cli.js';

/** Runs `nexus` with the process's arguments and streams; `cliPath` is the script MCP clients should start. */
export async function main(cliPath: string): Promise<void> {
  const interrupts = new EventEmitter();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupts.emit('interrupt'));
  const interrupted = once(interrupts, 'interrupt').then(() => undefined);

  process.exitCode = await runCli(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    cliPath,
    interrupted,
    onInterrupt(listener) {
      interrupts.on('interrupt', listener);
      return () => interrupts.off('interrupt', listener);
    },
  });
}
