// Benchmark of the living skill library (issue 14), run against the builds (`pnpm build` first):
// each figure beside a baseline measured in the same run (no pass/fail):
// 1. the reload check a call pays with 200 packages and nothing changed (goal: ≤ 0.2 ms added per
//    call): a registry call of a package tool through the library family, beside the same tool
//    registered as a plain skill; and the checks themselves — at most every 100 ms as configured,
//    one at every call, a full sweep of every package;
// 2. from a SKILL.md edit to `notifications/tools/list_changed` at an MCP client (goal ≤ 250 ms),
//    the watcher alone noticing;
// 3. `skill_search` over 1,000 packages (goal ≤ 5 ms), beside building the index once.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { median, percentile, printRatios, sampleInterleaved, time } from '../../../scripts/bench-stats.mjs';
import { createMcpServer } from '../../mcp/dist/index.js';
import { SkillRegistry } from '../../registry/dist/index.js';
import { openSkillLibrary } from '../dist/index.js';

const sdk = createRequire(join(import.meta.dirname, '..', '..', 'mcp', 'package.json'));
const load = (path) => import(pathToFileURL(sdk.resolve(`@modelcontextprotocol/sdk/${path}`)).href);
const [{ Client }, { InMemoryTransport }, { ToolListChangedNotificationSchema }] = await Promise.all([
  load('client/index.js'),
  load('inMemory.js'),
  load('types.js'),
]);

const WORDS = ['convert', 'merge', 'deploy', 'render', 'summarise', 'archive', 'translate', 'index', 'lint', 'resize', 'scan', 'report'];
const TOPICS = ['pdf', 'markdown', 'kubernetes', 'image', 'invoice', 'changelog', 'database', 'email', 'calendar', 'audio', 'video', 'git'];

function world(count) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nexus-living-bench-')));
  const root = join(dir, 'config', 'skills');
  mkdirSync(join(dir, 'work'), { recursive: true });
  for (let index = 0; index < count; index++) write(root, index, 'first');
  const options = {
    cwd: join(dir, 'work'),
    configDirectory: join(dir, 'config'),
    stateDirectory: join(dir, 'state'),
    homeDirectory: join(dir, 'home'),
  };
  return { dir, root, options };
}

function write(root, index, version) {
  const folder = join(root, `skill-${index}`);
  mkdirSync(folder, { recursive: true });
  const verb = WORDS[index % WORDS.length];
  const topic = TOPICS[Math.floor(index / WORDS.length) % TOPICS.length];
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: skill-${index}\ndescription: ${verb} ${topic} files, ${version} version (package ${index}).\nrouting_keywords: [${verb}, ${topic}, tool${index}]\ncommand: "true"\n---\nInstructions.\n`,
  );
}

function registryOver(family, cwd) {
  const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset('yolo', { cwd }));
  return new SkillRegistry(services).use(family);
}

async function reloadCheck() {
  const { dir, options } = world(200);
  try {
    const throttled = await openSkillLibrary({ ...options, watch: false });
    const eager = await openSkillLibrary({ ...options, watch: false, checkIntervalMs: 0 });
    await Promise.all([throttled.refresh(), eager.refresh()]);
    const living = registryOver(throttled.family, options.cwd);
    await living.refresh();
    const tool = throttled.family.skills.find((spec) => spec.name === 'skill-0');
    const plain = registryOver({ name: 'plain', skills: [tool] }, options.cwd);
    const call = (registry) => async () => {
      const result = await registry.execute('skill-0');
      if (!result.success) throw new Error(result.error);
    };
    console.log('1. The reload check of a call, 200 packages, nothing changed:');
    printRatios(
      await sampleInterleaved(
        { 'plain registry, skill-0': call(plain), 'library family, skill-0': call(living) },
        { runs: 300, warmUp: 30 },
      ),
      'plain registry, skill-0',
    );
    const checks = await sampleInterleaved(
      {
        'check before a call (every 100 ms)': () => throttled.family.refresh('skill-0'),
        'check before a call (every call)': () => eager.family.refresh('skill-0'),
        'full sweep (a listing, every time)': () => eager.family.refresh(),
      },
      { runs: 2000, warmUp: 200 },
    );
    for (const [name, samples] of Object.entries(checks)) {
      console.log(
        `  ${name.padEnd(40)} ${(median(samples) * 1000).toFixed(1).padStart(7)} µs median   ${(percentile(samples, 99) * 1000).toFixed(1).padStart(7)} µs p99`,
      );
    }
    console.log('  goal: ≤ 0.2 ms added per call\n');
    await Promise.all([throttled.close(), eager.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function editToNotification() {
  const { dir, root, options } = world(200);
  try {
    const library = await openSkillLibrary(options);
    await library.refresh();
    const registry = registryOver(library.family, options.cwd);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(registry).connect(serverSide);
    const client = new Client({ name: 'bench', version: '1.0.0' });
    let arrived = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => arrived());
    await client.connect(clientSide);
    const samples = [];
    // The watchers never keep a process alive (a server's connection does); this bench has no connection to wait on.
    const keepAlive = setInterval(() => {}, 1000);
    for (let round = 0; round < 30; round++) {
      const notified = new Promise((resolve) => {
        arrived = resolve;
      });
      samples.push(
        await time(async () => {
          write(root, round % 10, `edit ${round}`);
          await notified;
        }),
      );
    }
    clearInterval(keepAlive);
    console.log('2. From a SKILL.md edit to notifications/tools/list_changed (watcher, 200 packages, 30 edits):');
    console.log(
      `  median ${median(samples).toFixed(1)} ms, p90 ${percentile(samples, 90).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms (of which ${25} ms is the wait that merges an editor's writes)`,
    );
    console.log('  goal: ≤ 250 ms\n');
    await client.close();
    await library.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function search() {
  const { dir, options } = world(1000);
  try {
    const library = await openSkillLibrary({ ...options, watch: false });
    const build = await time(() => library.search('pdf'));
    const queries = ['merge pdf', 'deploy kubernetes', 'resze imge', 'changel', 'tool512', 'summarise invoice report', 'git'];
    let next = 0;
    const samples = await sampleInterleaved(
      {
        'a listing (library.packages)': async () => library.packages,
        'skill_search, 7 queries in turn': () => library.search(queries[next++ % queries.length], 5),
      },
      { runs: 1000, warmUp: 100 },
    );
    console.log('3. skill_search over 1,000 packages:');
    console.log(`  building the index (first search)         ${build.toFixed(1).padStart(7)} ms`);
    printRatios(samples, 'a listing (library.packages)');
    console.log('  goal: search ≤ 5 ms');
    await library.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await reloadCheck();
await editToNotification();
await search();
