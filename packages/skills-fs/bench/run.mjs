// Benchmarks of @nexus/skills-fs against ripgrep, run on the built package (`pnpm build` first).
// Generates a ~200 MB tree of 20,000 files, a 200 MB one-line file and a 1 GB file in a temp
// directory, prints the figures side by side with ratios, and removes everything afterwards.
// No pass/fail.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { fsSkills } from '../dist/index.js';

const run = promisify(execFile);
const RUNS = 7;
const DIRECTORIES = 20;
const SUBDIRECTORIES = 50;
const FILES_PER_DIRECTORY = 20;
const FILE_BYTES = 10_000;
const NEEDLE = 'xq_needle_zx';

const words = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'const',
  'return',
  'function',
  'value',
  'index',
  'buffer',
  'stream',
  'error',
  'result',
  'import',
  'export',
];

/** One file of ~10 kB of code-like lines; every 20th file holds the needle on one line. */
function fileContent(seed) {
  let text = '';
  let line = 0;
  while (text.length < FILE_BYTES) {
    line++;
    const parts = [];
    for (let word = 0; word < 8; word++) parts.push(words[(seed * 7 + line * 13 + word * 5) % words.length]);
    if (seed % 20 === 0 && line === 42) parts.push(NEEDLE);
    text += `${'  '.repeat(line % 4)}${parts.join(' ')};\n`;
  }
  return text;
}

async function generateTree(root) {
  let seed = 0;
  for (let d = 0; d < DIRECTORIES; d++) {
    for (let s = 0; s < SUBDIRECTORIES; s++) {
      const directory = join(root, `pkg${d}`, `mod${s}`);
      await mkdir(directory, { recursive: true });
      await Promise.all(
        Array.from({ length: FILES_PER_DIRECTORY }, (_, f) => {
          seed++;
          return writeFile(join(directory, `file${f}.${f % 2 ? 'ts' : 'js'}`), fileContent(seed));
        }),
      );
    }
  }
  return seed;
}

/** Median times of `ours` and `baseline`, run alternately so that load on the machine hits both alike. */
async function compare(ours, baseline) {
  await ours();
  if (baseline) await baseline();
  const times = { ours: [], baseline: [] };
  for (let index = 0; index < RUNS; index++) {
    for (const [name, task] of [
      ['baseline', baseline],
      ['ours', ours],
    ]) {
      if (!task) continue;
      const start = performance.now();
      await task();
      times[name].push(performance.now() - start);
    }
  }
  const median = (list) => (list.length === 0 ? undefined : list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
  return { ours: median(times.ours), baseline: median(times.baseline) };
}

function registryFor(cwd, grepEngine) {
  const services = new ServiceContainer();
  services.register('cwd', cwd);
  services.register('permissions', resolvePreset('sandboxed', { cwd }));
  services.register('fileSkillOptions', { grepEngine, regexTimeoutMs: 120_000, searchTimeoutMs: 120_000 });
  return new SkillRegistry(services).use(fsSkills);
}

async function expectOk(result) {
  if (!result.success) throw new Error(`${result.kind}: ${result.error}`);
  return result;
}

/** Runs `task`, sampling the process's RSS: its result and the peak growth in MB. */
async function withPeakMemory(task) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const ours = await task();
    return { ours, peak: (Math.max(peak, process.memoryUsage().rss) - before) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

const rows = [];
function report(name, ours, baseline, baselineName, target) {
  rows.push({ name, ours, baseline, baselineName, target });
  const ratio = baseline ? `${(ours / baseline).toFixed(2)}×` : '';
  console.log(
    `${name.padEnd(34)} ${ours.toFixed(1).padStart(9)} ms   ${baselineName.padEnd(30)} ${baseline ? `${baseline.toFixed(1).padStart(9)} ms` : ''.padStart(12)}   ratio ${ratio.padStart(7)}   target ${target}`,
  );
}

const root = await mkdtemp(join(tmpdir(), 'nexus-fs-bench-'));
try {
  const tree = join(root, 'tree');
  const started = performance.now();
  const files = await generateTree(tree);
  console.log(
    `Generated ${files} files (~${Math.round((files * FILE_BYTES) / 1e6)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s. Medians of ${RUNS} alternating runs after a warm-up; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores.\n`,
  );

  let hasRipgrep = true;
  try {
    await run('rg', ['--version']);
  } catch {
    hasRipgrep = false;
    console.log('rg is not on PATH: the ripgrep comparisons are skipped.\n');
  }

  const withRipgrep = registryFor(tree, 'ripgrep');
  const builtin = registryFor(tree, 'builtin');
  const grepArgs = { pattern: NEEDLE, path: '.', max_matches: 10_000 };
  const check = await expectOk(await builtin.execute('grep', grepArgs));
  console.log(`grep finds ${check.data.matches} matches in ${check.data.files} files.`);

  const rg = (args) => (hasRipgrep ? () => run('rg', args, { maxBuffer: 64 * 1024 * 1024 }) : undefined);
  const rgGrep = rg(['--no-ignore', '--hidden', '-n', NEEDLE, tree]);
  if (hasRipgrep) {
    const timing = await compare(async () => expectOk(await withRipgrep.execute('grep', grepArgs)), rgGrep);
    report('grep skill (ripgrep engine)', timing.ours, timing.baseline, 'rg -n PATTERN dir', '≤ 1.3×');
  }
  const builtinTiming = await compare(async () => expectOk(await builtin.execute('grep', grepArgs)), rgGrep);
  report('grep skill (built-in engine)', builtinTiming.ours, builtinTiming.baseline, 'rg -n PATTERN dir', '≤ 4×');
  // A real regular expression: no literal shortcut, every file is decoded and matched.
  const regexArgs = { ...grepArgs, pattern: 'xq_\\w+_zx' };
  const regexTiming = await compare(
    async () => expectOk(await builtin.execute('grep', regexArgs)),
    rg(['--no-ignore', '--hidden', '-n', regexArgs.pattern, tree]),
  );
  report('grep skill (built-in), regex', regexTiming.ours, regexTiming.baseline, 'rg -n REGEX dir', '≤ 4×');
  // No literal for a prefilter to look for (one branch has none): RE2 runs over every byte of the tree.
  const bareArgs = { ...grepArgs, pattern: '\\d{3,}|ee[a-z]{2}e' };
  const bareTiming = await compare(
    async () => expectOk(await builtin.execute('grep', bareArgs)),
    rg(['--no-ignore', '--hidden', '-n', bareArgs.pattern, tree]),
  );
  report('grep skill (built-in), bare regex', bareTiming.ours, bareTiming.baseline, 'rg -n BARE-REGEX dir', '≤ 4×');
  const small = join(root, 'small');
  await mkdir(small);
  await writeFile(join(small, 'one.txt'), fileContent(20));
  const smallArgs = { pattern: 'xq_\\w+_zx', path: 'small/one.txt' };
  const smallRegistry = registryFor(root, 'builtin');
  const smallTiming = await compare(
    async () => expectOk(await smallRegistry.execute('grep', smallArgs)),
    rg(['-n', smallArgs.pattern, join(small, 'one.txt')]),
  );
  report('grep skill (built-in), one file', smallTiming.ours, smallTiming.baseline, 'rg -n REGEX file', '≤ 4×');

  // One 200 MB line: the built-in engine searches its first 8 MiB and says so; memory stays bounded.
  const line = join(root, 'one-line.txt');
  const lineFile = await open(line, 'w');
  const megabyte = Buffer.alloc(1024 * 1024, 'x');
  for (let index = 0; index < 200; index++) await lineFile.write(megabyte);
  await lineFile.write('xq_needle_zx\n');
  await lineFile.close();
  const lineRegistry = registryFor(root, 'builtin');
  for (const pattern of [NEEDLE, 'xq_\\w+_zx']) {
    const { ours, peak } = await withPeakMemory(async () => {
      const started = performance.now();
      await expectOk(await lineRegistry.execute('grep', { pattern, path: 'one-line.txt' }));
      return performance.now() - started;
    });
    report(`grep (built-in) 200 MB line, ${pattern === NEEDLE ? 'literal' : 'regex'}`, ours, undefined, '', '');
    console.log(`${''.padEnd(34)} extra memory (peak RSS − before): ${peak.toFixed(1)} MB   target: bounded (826 MB before)`);
  }

  const globArgs = { pattern: '*.ts', path: '.', max_results: 100_000 };
  const globbed = await expectOk(await builtin.execute('glob', globArgs));
  console.log(`glob finds ${globbed.data.total} files.`);
  const globTiming = await compare(
    async () => expectOk(await builtin.execute('glob', globArgs)),
    rg(['--files', '--no-ignore', '--hidden', '-g', '*.ts', tree]),
  );
  report('glob skill', globTiming.ours, globTiming.baseline, "rg --files -g '*.ts' dir", '≤ 1.5×');

  const big = join(root, 'big.log');
  const head = `${Array.from({ length: 5000 }, (_, index) => `log line ${index + 1} ${words[index % words.length]}`).join('\n')}\n`;
  await writeFile(big, head);
  const handle = await open(big, 'r+');
  await handle.truncate(1024 ** 3);
  await handle.close();
  const bigRegistry = registryFor(root, 'auto');
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const { ours: readHead } = await compare(async () => {
    const result = await expectOk(await bigRegistry.execute('read_file', { path: 'big.log', offset: 1, limit: 100 }));
    peak = Math.max(peak, process.memoryUsage().rss);
    return result;
  });
  report('read_file lines 1–100 of 1 GB', readHead, undefined, '', '< 50 ms');
  console.log(`${''.padEnd(34)} extra memory (peak RSS − before): ${((peak - rssBefore) / 1024 / 1024).toFixed(1)} MB   target < 50 MB`);
} finally {
  await rm(root, { recursive: true, force: true });
}
