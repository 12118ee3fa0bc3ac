// Benchmarks of importing MCP servers, run against the builds (`pnpm build` first; the proxy figure
// needs apps/agent's too). Every figure is printed beside a baseline measured in the same run (no
// pass/fail):
//  0. a read over stdio: `nexus mcp`'s read_file against the official server-filesystem's
//     read_text_file (goal ≤ 1.0×), over 3 sets of fresh server processes, timed in blocks of
//     consecutive calls to one server so that work a server defers past its answer (nexus's audit
//     log) falls inside the figure, with a pause between blocks so that it does not fall into the
//     other server's. Timed twice in each set: from the servers' start (their first 3,000 calls,
//     while V8 still compiles what runs per call and a machine idle before may still be speeding
//     up), and at the steady pace, after 8,000 calls (the goal's figure);
//  1. a call to an imported tool through `nexus mcp` (SDK client → Nexus → server-everything's
//     `echo`) against the same client calling server-everything directly (goal ≤ 1.3×), and, to
//     show what one stdio hop costs, the client calling nexus's own `echo`;
//  2. importing 5 servers cold, started in parallel, against the slowest of them imported alone
//     (goal ≤ 1.2×);
//  3. a read over Streamable HTTP (`serveHttp`): a 2026-07-28 client's stateless call (a server
//     instance per request, no session) next to a 2025-era client's call in its session.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';
import { median, printRatios, sampleInterleaved, time } from '../../../scripts/bench-stats.mjs';
import { importMcpServer, serveHttp } from '../dist/index.js';

const CALLS = 500;
/**
 * The read is timed over this many sets of fresh server processes, one after another, each warmed
 * up alike, and their samples pooled: the ratio of one set moves by several percent from one set
 * to the next (0.82× to 0.93× at the steady pace within minutes on the same build).
 */
const READ_PROCESS_ROUNDS = 3;
const READ_BLOCK = 10;
/**
 * Rounds timed from each set's start: 3,000 calls to each server, the number after which V8
 * optimizes what runs once a call (Node.js 22: TurboFan at 3,000 calls of a function, Maglev off).
 */
const READ_EARLY_BLOCKS = 300;
/**
 * Untimed rounds after those, until both servers run at their steady pace (8,000 calls in all):
 * before, V8's compile jobs still share the machine's two cores with the servers and the client.
 */
const READ_SETTLE = 500;
/** Rounds timed at the steady pace, per set. */
const READ_BLOCKS = 200;
const CALL_WARM_UP = 50;
const COLD_ROUNDS = 8;

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const nexusCli = join(import.meta.dirname, '..', '..', '..', 'apps', 'agent', 'dist', 'cli.js');

const dir = await realpath(await mkdtemp(join(tmpdir(), 'nexus-mcp-bench-')));
const filesystem = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), dir] };
const hostile = { command: process.execPath, args: [join(import.meta.dirname, '..', 'test', 'hostile-mcp-server.mjs')] };

async function connect(command, args, env) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, ...(env ? { env } : {}), stderr: 'ignore' }));
  return client;
}

async function roundTrips() {
  if (!existsSync(nexusCli)) {
    console.log(`Round trip through nexus mcp: not measured (build apps/agent first: ${nexusCli} is missing).\n`);
    return;
  }
  const configHome = join(dir, 'config');
  await mkdir(join(configHome, 'nexus'), { recursive: true });
  await writeFile(join(configHome, 'nexus', 'nexus.config.json'), JSON.stringify({ mcpServers: { everything } }));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    XDG_CONFIG_HOME: configHome,
    XDG_STATE_HOME: join(dir, 'state'),
  };
  const direct = await connect(everything.command, everything.args);
  const proxied = await connect(process.execPath, [nexusCli, 'mcp', '--preset', 'yolo', '--families', 'utility', '--cwd', dir], env);
  try {
    const arguments_ = { message: 'hello' };
    const contenders = {
      'client → server-everything': () => direct.callTool({ name: 'echo', arguments: arguments_ }),
      'client → nexus mcp → server': () => proxied.callTool({ name: 'mcp__everything__echo', arguments: arguments_ }),
      'client → nexus mcp (own echo)': () => proxied.callTool({ name: 'echo', arguments: arguments_ }),
    };
    const check = await contenders['client → nexus mcp → server']();
    if (check.isError) throw new Error(`The proxied call failed: ${JSON.stringify(check.content)}`);
    const samples = await sampleInterleaved(contenders, { runs: CALLS, warmUp: CALL_WARM_UP });
    console.log('Round trip of one echo call over stdio:');
    printRatios(samples, 'client → server-everything');
    const [direct_, proxied_, own] = Object.values(samples).map(median);
    console.log(`  Nexus's part beyond the second stdio hop: ${(proxied_ - direct_ - own).toFixed(2)} ms per call`);
    console.log('  goal: through nexus mcp ≤ 1.30× direct\n');
  } finally {
    await Promise.all([direct.close(), proxied.close()]);
  }
}

async function readRoundTrip() {
  if (!existsSync(nexusCli)) {
    console.log(`Read round trip of nexus mcp: not measured (build apps/agent first: ${nexusCli} is missing).\n`);
    return;
  }
  const sample = join(dir, 'sample.txt');
  await writeFile(
    sample,
    Array.from({ length: 200 }, (_, line) => `line ${line + 1}: the quick brown fox jumps over the lazy dog`).join('\n'),
  );
  // No config of the user's, and the audit log (on, as by default) kept in the temporary directory.
  const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'read-config'), XDG_STATE_HOME: join(dir, 'state') };
  // The same with the audit log off, to show what the log costs (nexus's own work, the SDK, and the log).
  const unlogged = join(dir, 'read-config-unlogged');
  await mkdir(join(unlogged, 'nexus'), { recursive: true });
  await writeFile(join(unlogged, 'nexus', 'nexus.config.json'), JSON.stringify({ audit: { enabled: false } }));
  const baseline = 'server-filesystem read_text_file';
  const early = {};
  const steady = {};
  const setRatios = [];
  const pool = (into, blocks) => {
    for (const [name, values] of Object.entries(blocks)) (into[name] ??= []).push(...values.map((value) => value / READ_BLOCK));
  };
  for (let round = 0; round < READ_PROCESS_ROUNDS; round++) {
    const blocks = await readBlocks(sample, env, unlogged);
    pool(early, blocks.early);
    pool(steady, blocks.steady);
    setRatios.push(`${(median(blocks.steady['nexus mcp read_file']) / median(blocks.steady[baseline])).toFixed(2)}×`);
  }
  console.log(
    `Read round trip over stdio (a 200-line file; per call, timed in blocks of ${READ_BLOCK} calls to one server; ${READ_PROCESS_ROUNDS} sets of server processes).`,
  );
  console.log(`The first ${READ_EARLY_BLOCKS * READ_BLOCK} calls to each server, while V8 still compiles:`);
  printRatios(early, baseline);
  console.log(`At the steady pace, after ${(READ_EARLY_BLOCKS + READ_SETTLE) * READ_BLOCK} calls to each server:`);
  printRatios(steady, baseline);
  console.log(`  nexus mcp read_file in each set: ${setRatios.join(', ')}`);
  console.log('  goal: nexus mcp ≤ 1.00× server-filesystem at the steady pace\n');
}

/**
 * Starts the three servers of the read section, times their blocks of reads from their start
 * (`early`) and at their steady pace (`steady`), and closes them.
 */
async function readBlocks(sample, env, unlogged) {
  const nexus = await connect(process.execPath, [nexusCli, 'mcp', '--cwd', dir], env);
  const nexusUnlogged = await connect(process.execPath, [nexusCli, 'mcp', '--cwd', dir], { ...env, XDG_CONFIG_HOME: unlogged });
  const official = await connect(filesystem.command, filesystem.args);
  try {
    const reads = (client, name) => async () => {
      for (let call = 0; call < READ_BLOCK; call++) await client.callTool({ name, arguments: { path: sample } });
    };
    const contenders = {
      'server-filesystem read_text_file': reads(official, 'read_text_file'),
      'nexus mcp read_file': reads(nexus, 'read_file'),
      'nexus mcp read_file, no audit': reads(nexusUnlogged, 'read_file'),
    };
    const early = await sampleInterleaved(contenders, { runs: READ_EARLY_BLOCKS, warmUp: 0, pauseMs: 5 });
    const steady = await sampleInterleaved(contenders, { runs: READ_BLOCKS, warmUp: READ_SETTLE, pauseMs: 5 });
    return { early, steady };
  } finally {
    await Promise.all([nexus.close(), nexusUnlogged.close(), official.close()]);
  }
}

async function coldImports() {
  const servers = { everything, filesystem, hostile, 'everything (2)': everything, 'filesystem (2)': filesystem };
  const importAndClose = async (entries) => {
    const imported = await Promise.all(entries.map(([name, config]) => importMcpServer(name.replace(/\W/g, ''), config)));
    await Promise.all(imported.map((server) => server.close()));
  };
  const alone = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  const together = [];
  for (let round = 0; round <= COLD_ROUNDS; round++) {
    for (const entry of Object.entries(servers)) {
      const elapsed = await time(() => importAndClose([entry]));
      if (round > 0) alone[entry[0]].push(elapsed);
    }
    const elapsed = await time(() => importAndClose(Object.entries(servers)));
    if (round > 0) together.push(elapsed);
  }
  const slowest = Math.max(...Object.values(alone).map(median));
  console.log(`Importing servers cold (start, initialize, tools/list, close), median of ${COLD_ROUNDS} rounds:`);
  for (const [name, values] of Object.entries(alone))
    console.log(`  ${`${name} alone`.padEnd(32)} ${median(values).toFixed(1).padStart(7)} ms`);
  const sum = Object.values(alone)
    .map(median)
    .reduce((total, value) => total + value, 0);
  console.log(
    `  ${'all 5 in parallel'.padEnd(32)} ${median(together).toFixed(1).padStart(7)} ms   ${(median(together) / slowest).toFixed(2)}× the slowest alone`,
  );
  console.log(`  (one after another they would take ${sum.toFixed(1)} ms; ${availableParallelism()} CPUs)`);
  console.log('  goal: all 5 in parallel ≤ 1.20× the slowest alone');
}

async function httpCalls() {
  const services = new ServiceContainer().register('cwd', dir).register('permissions', resolvePreset('sandboxed', { cwd: dir }));
  const registry = new SkillRegistry(services).use(utilitySkills);
  const server = await serveHttp(registry);
  const headers = { authorization: `Bearer ${server.token}` };
  const session = new Client({ name: 'bench', version: '1.0.0' });
  await session.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  const stateless = new ModernClient({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await stateless.connect(new ModernHttpTransport(new URL(server.url), { requestInit: { headers } }));
  try {
    const call = { name: 'echo', arguments: { message: 'hello' } };
    const samples = await sampleInterleaved(
      {
        '2025-11-25, in a session': () => session.callTool(call),
        '2026-07-28, stateless': () => stateless.callTool(call),
      },
      { runs: CALLS, warmUp: CALL_WARM_UP },
    );
    console.log('Round trip of one echo call over Streamable HTTP (serveHttp):');
    printRatios(samples, '2025-11-25, in a session');
    console.log('');
  } finally {
    await Promise.all([session.close(), stateless.close()]);
    await server.close();
  }
}

try {
  await readRoundTrip();
  await roundTrips();
  await httpCalls();
  await coldImports();
} finally {
  await rm(dir, { recursive: true, force: true });
}
