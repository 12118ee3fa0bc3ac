// Benchmarks of @nexus/process, run against the build (`pnpm build` first); every figure is printed
// beside a baseline measured in the same run (no pass/fail):
//  1. import time of the entry against importing execa;
//  2. runProcess running `true` against calling execa directly (target: ≤ 1.3×), and inside a
//     bubblewrap sandbox against without (where bubblewrap can run);
//  3. peak memory of the runner while a command prints 1 GiB, above the idle RSS (target: ≤ 64 MB).
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { median, printRatios, sampleInterleaved } from '../../../scripts/bench-stats.mjs';
import { resolveCommandIsolation, runProcess } from '../dist/index.js';

const RUNS = 300;
const WARM_UP = 30;
const GIGABYTE = 1024 ** 3;
const MB = 1024 * 1024;

function importTime(specifier) {
  const script = `const start = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - start);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' }));
}

const imports = Array.from({ length: 5 }, () => [importTime('../dist/index.js'), importTime('execa')]);
const entryImport = median(imports.map(([entry]) => entry));
const execaImport = median(imports.map(([, baseline]) => baseline));
console.log('Import time in a fresh process, median of 5 (execa itself is loaded on the first run):');
console.log(
  `  @nexus/process ${entryImport.toFixed(1)} ms   execa ${execaImport.toFixed(1)} ms   ${(entryImport / execaImport).toFixed(2)}×\n`,
);

const dir = await realpath(await mkdtemp(join(tmpdir(), 'nexus-process-bench-')));
try {
  const isolation = await resolveCommandIsolation({ sandbox: 'auto', network: true }, 'trusted');
  const contenders = {
    'execa("true") directly': () => execa('true', [], { cwd: dir }),
    'runProcess("true")': () => runProcess('true', [], { cwd: dir }),
    ...(isolation.isolation === 'bubblewrap'
      ? { 'runProcess("true") in bubblewrap': () => runProcess('true', [], { cwd: dir, sandbox: {} }) }
      : {}),
  };
  const samples = await sampleInterleaved(contenders, { runs: RUNS, warmUp: WARM_UP });
  console.log('Start-up cost:');
  printRatios(samples, 'execa("true") directly');
  console.log('  target: runProcess ≤ 1.30× execa');
  if (isolation.isolation === 'bubblewrap') {
    const sandboxed = median(samples['runProcess("true") in bubblewrap']) / median(samples['runProcess("true")']);
    console.log(`  bubblewrap sandbox: ${sandboxed.toFixed(2)}× runProcess without it\n`);
  } else {
    console.log(`  bubblewrap sandbox: not measured (${isolation.reason})\n`);
  }

  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const result = await runProcess('head', ['-c', String(GIGABYTE), '/dev/zero'], { cwd: dir, timeoutMs: 170_000 });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log('Memory while a command prints 1 GiB (head -c 1GiB /dev/zero), default 1 MiB cap:');
  console.log(
    `  idle RSS ${(idle / MB).toFixed(1)} MB, peak RSS ${(peak / MB).toFixed(1)} MB (${(peak / idle).toFixed(2)}× idle), above idle ${((peak - idle) / MB).toFixed(1)} MB   target ≤ 64 MB`,
  );
  console.log(
    `  exit ${result.exitCode}, truncated ${result.truncated}, kept ${result.stdout.length} characters, ${seconds.toFixed(1)} s (${(1024 / seconds).toFixed(0)} MiB/s)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
