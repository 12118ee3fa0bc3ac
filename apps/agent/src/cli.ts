import { EventEmitter, once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from './run-cli.js';

const interrupts = new EventEmitter();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupts.emit('interrupt'));
const interrupted = once(interrupts, 'interrupt').then(() => undefined);

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  cliPath: fileURLToPath(import.meta.url),
  interrupted,
  onInterrupt(listener) {
    interrupts.on('interrupt', listener);
    return () => interrupts.off('interrupt', listener);
  },
});
