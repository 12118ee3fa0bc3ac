import { readFile } from 'node:fs/promises';
import { waitUntil } from '@nexus/test-utils';
import { runCli } from '../run-cli.js';
import { memoryIo } from './memory-io-fixture.js';

/**
 * Runs `nexus serve --port 0 <args>` in this process until it prints its URL and token file: its
 * URL, its static token, what it printed, a JSON-RPC request (the static token's unless another
 * is given), and `stop()` (shutdown_server, then the exit status).
 */
export async function serveInProcess(args: readonly string[], options: Parameters<typeof memoryIo>[0]) {
  const memory = memoryIo(options);
  const serving = runCli(['serve', '--port', '0', ...args], memory.io);
  await waitUntil(
    () => /^Token: /m.test(memory.stdout()),
    () => `nexus serve to listen: ${memory.stderr()}`,
  );
  const url = /^URL: +(\S+)$/m.exec(memory.stdout())?.[1] as string;
  const tokenFile = /^Token: in (\S+)$/m.exec(memory.stdout())?.[1] as string;
  const token = (await readFile(tokenFile, 'utf8')).trim();
  const rpc = (method: string, params: object = {}, bearer = token) =>
    fetch(`${url}/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  return {
    url,
    token,
    stdout: memory.stdout,
    stderr: memory.stderr,
    rpc,
    async stop(): Promise<number> {
      await rpc('shutdown_server').catch(() => {});
      return serving;
    },
  };
}
