// Benchmark: our `nexus mcp` against the official @modelcontextprotocol/server-filesystem, with the
// same SDK client over stdio. Run after `pnpm build`: `pnpm --filter @nexus/agent bench`.
// Prints figures side by side; nothing passes or fails.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, percentile } from '../../../scripts/bench-stats.mjs';

const SPAWNS = 15;
const WARMUP_CALLS = 50;
const CALLS = 1000;
const BLOCK = 50;

const require = createRequire(import.meta.url);
const nexusCli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const officialCli = join(require.resolve('@modelcontextprotocol/server-filesystem/package.json'), '..', 'dist', 'index.js');

const dir = await realpath(await mkdtemp(join(tmpdir(), 'nexus-bench-')));
const file = join(dir, 'sample.txt');
await writeFile(file, Array.from({ length: 200 }, (_, line) => `line ${line + 1}: the quick brown fox jumps over the lazy dog`).join('\n'));

const servers = [
  { name: 'nexus read_file', args: [nexusCli, 'mcp', '--cwd', dir], tool: 'read_file', arguments: { path: file } },
  { name: 'server-filesystem read_text_file', args: [officialCli, dir], tool: 'read_text_file', arguments: { path: file } },
];

async function connect(server) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: server.args, stderr: process.env.BENCH_DEBUG ? 'inherit' : 'ignore' }),
  );
  return client;
}

async function spawnToFirstList(server) {
  const start = performance.now();
  const client = await connect(server);
  await client.listTools();
  const elapsed = performance.now() - start;
  await client.close();
  return elapsed;
}

async function readingClient(server) {
  const client = await connect(server);
  const call = () => client.callTool({ name: server.tool, arguments: server.arguments });
  const first = await call();
  if (first.isError) throw new Error(`${server.name} failed: ${JSON.stringify(first.content)}`);
  for (let index = 0; index < WARMUP_CALLS; index++) await call();
  return { client, call };
}

async function timeCalls(call, count, times) {
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
}

const format = (ms) => `${ms.toFixed(3)} ms`;
const rows = [];
try {
  // Interleave the two servers, block by block, so machine noise hits both alike.
  const results = new Map(servers.map((server) => [server.name, { spawn: [], calls: [] }]));
  const readers = await Promise.all(servers.map(readingClient));
  for (let block = 0; block < CALLS / BLOCK; block++) {
    for (const [index, server] of servers.entries()) await timeCalls(readers[index].call, BLOCK, results.get(server.name).calls);
  }
  await Promise.all(readers.map(({ client }) => client.close()));
  for (let run = 0; run < SPAWNS; run++) {
    for (const server of servers) results.get(server.name).spawn.push(await spawnToFirstList(server));
  }
  const [ours, theirs] = servers.map((server) => results.get(server.name));
  const metrics = [
    ['read round trip, median', (r) => median(r.calls)],
    ['read round trip, p90', (r) => percentile(r.calls, 90)],
    ['spawn → first tools/list, median', (r) => median(r.spawn)],
  ];
  for (const [label, pick] of metrics)
    rows.push([label, format(pick(ours)), format(pick(theirs)), `${(pick(ours) / pick(theirs)).toFixed(2)}×`]);
} finally {
  await rm(dir, { recursive: true, force: true });
}

const headers = ['metric', 'nexus', 'server-filesystem', 'nexus / official'];
const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
console.log(
  `Same SDK client over stdio; ${CALLS} reads of a 200-line file each, in alternating blocks of ${BLOCK}, after ${WARMUP_CALLS} warm-up calls; ${SPAWNS} alternating spawns each.`,
);
console.log(line(headers));
for (const row of rows) console.log(line(row));
