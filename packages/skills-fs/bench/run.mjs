// Benchmarks of @nexus/skills-fs against ripgrep, run on the built package (`pnpm build` first).
// Generates a ~200 MB tree of 20,000 files, a 200 MB one-line file and a 1 GB file in a temp
// directory, prints the figures side by side with ratios, and removes everything afterwards.
// No pass/fail.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { atomicWriteVerified, resolvePreset, ServiceContainer } from '@nexus/core';
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

// One edit in a child process of its own, so that its peak memory (VmHWM) is its own: the extra
// peak RSS over the RSS before the call. `baseline` is plain Node: read, replace, write.
const EDIT_CHILD = String.raw`
import { readFileSync, writeFileSync } from 'node:fs';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
const { fsSkills } = await import(process.env.FS_DIST);
const [cwd, tool] = process.argv.slice(1);
const kib = (field) => Number(new RegExp(field + ':\\s+(\\d+)').exec(readFileSync('/proc/self/status', 'utf8'))[1]);
const services = new ServiceContainer().register('cwd', cwd).register('permissions', resolvePreset('sandboxed', { cwd }));
const registry = new SkillRegistry(services).use(fsSkills);
const path = cwd + '/edit.txt';
const line = Number(process.env.NEEDLE_LINE);
const args = {
  write_file: () => ({ path: 'edit.txt', content: readFileSync(path, 'utf8').replace('needle', 'found') }),
  edit_file: () => ({ path: 'edit.txt', old_string: 'needle', new_string: 'found' }),
  edit_lines: () => ({ path: 'edit.txt', start_line: line, new_content: 'found' }),
  regex_replace: () => ({ path: 'edit.txt', pattern: '^needle$', replacement: 'found', multiline: true }),
  patch: () => ({ target: 'edit.txt', diff: '--- a/edit.txt\n+++ b/edit.txt\n@@ -' + (line - 1) + ',3 +' + (line - 1) + ',3 @@\n x\n-needle\n+found\n x\n' }),
}[tool]?.();
const before = kib('VmRSS');
const started = performance.now();
if (tool === 'baseline') writeFileSync(path, readFileSync(path, 'utf8').replace('needle', 'found'));
else {
  const result = await registry.execute(tool, args);
  if (!result.success) throw new Error(result.error);
}
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, extraMb: (kib('VmHWM') - before) / 1024 }));
`;

/** Runs one edit of a fresh `edit.txt` (31 MiB of two-byte lines, `needle` in the middle) in a child; its time and extra peak RSS. */
async function measureEdit(directory, tool, content, needleLine) {
  await writeFile(join(directory, 'edit.txt'), content);
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', EDIT_CHILD, directory, tool], {
    env: { ...process.env, FS_DIST: new URL('../dist/index.js', import.meta.url).href, NEEDLE_LINE: String(needleLine) },
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout);
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

  // One 200 MB line, the needle at its end: the built-in engine searches all of it in overlapping
  // windows, so memory stays bounded; one run each (RE2 takes seconds here), rg as the skill runs it.
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
      const result = await expectOk(await lineRegistry.execute('grep', { pattern, path: 'one-line.txt' }));
      if (result.data.matches !== 1) throw new Error(`grep ${pattern} on the 200 MB line: ${result.output.slice(-200)}`);
      return performance.now() - started;
    });
    let baseline;
    if (hasRipgrep) {
      const started = performance.now();
      await run('rg', ['-n', '--max-columns', '8000', '--max-columns-preview', pattern, line]);
      baseline = performance.now() - started;
    }
    report(`grep (built-in) 200 MB line, ${pattern === NEEDLE ? 'literal' : 'regex'}`, ours, baseline, 'rg -n PATTERN file (one run)', '');
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

  // Edits of a 31 MiB file of 16 million two-byte lines, each in a child process of its own (medians of 3).
  const edits = join(root, 'edits');
  await mkdir(edits);
  const lines = (31 * 1024 * 1024) / 2;
  const needleLine = lines / 2;
  const editContent = `${'x\n'.repeat(needleLine - 1)}needle\n${'x\n'.repeat(lines - needleLine)}`;
  const fileMb = Buffer.byteLength(editContent) / 1024 / 1024;
  console.log(`\nEdits of a ${fileMb.toFixed(0)} MiB file of ${lines} lines, one line changed (a child process per edit, medians of 3):`);
  const baselineRuns = [];
  for (let index = 0; index < 3; index++) baselineRuns.push(await measureEdit(edits, 'baseline', editContent, needleLine));
  const middle = (values) => values.sort((a, b) => a - b)[1];
  const baselineMs = middle(baselineRuns.map((edit) => edit.ms));
  const baselineMb = middle(baselineRuns.map((edit) => edit.extraMb));
  console.log(
    `${'plain Node read-replace-write'.padEnd(34)} ${baselineMs.toFixed(1).padStart(9)} ms   extra peak RSS ${baselineMb.toFixed(0).padStart(5)} MB`,
  );
  for (const tool of ['write_file', 'edit_file', 'edit_lines', 'regex_replace', 'patch']) {
    const runs = [];
    for (let index = 0; index < 3; index++) runs.push(await measureEdit(edits, tool, editContent, needleLine));
    const ms = middle(runs.map((edit) => edit.ms));
    const mb = middle(runs.map((edit) => edit.extraMb));
    console.log(
      `${tool.padEnd(34)} ${ms.toFixed(1).padStart(9)} ms   extra peak RSS ${mb.toFixed(0).padStart(5)} MB = ${(mb / fileMb).toFixed(1)}× the file, ${(mb / baselineMb).toFixed(1)}× plain Node   time ${(ms / baselineMs).toFixed(1)}×   target: a small multiple of the file (1–2.6 GB before)`,
    );
  }

  // The price of the edit lock, the compare-and-swap and the diff on a small file: edit_file against the bare atomic write it ends with.
  const smallEdit = join(root, 'small-edit');
  await mkdir(smallEdit);
  const smallPath = join(smallEdit, 'code.ts');
  await writeFile(smallPath, `${fileContent(7)}marker 0\n`);
  const editRegistry = registryFor(smallEdit, 'auto');
  let flip = false;
  const editTiming = await compare(
    async () => {
      flip = !flip;
      const [from, to] = flip ? ['marker 0', 'marker 1'] : ['marker 1', 'marker 0'];
      await expectOk(await editRegistry.execute('edit_file', { path: 'code.ts', old_string: from, new_string: to }));
    },
    async () => atomicWriteVerified(smallPath, await readFile(smallPath)),
  );
  report('edit_file 10 kB (lock, CAS, diff)', editTiming.ours, editTiming.baseline, 'read + atomicWriteVerified', '≤ 2×');
} finally {
  await rm(root, { recursive: true, force: true });
}
