import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from './run-cli.js';

const interrupted = Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => undefined);

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  cliPath: fileURLToPath(import.meta.url),
  interrupted,
});
