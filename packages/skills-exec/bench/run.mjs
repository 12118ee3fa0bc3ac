// Benchmarks of @nexus/skills-exec, run against the build (`pnpm build` first):
//  1. bash_safe running `true` against calling execa directly (target: ≤ 1.3×);
//  2. peak memory of the runner while a command prints 1 GB (target: ≤ 64 MB above idle).
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { execa } from 'execa';
import { bashSafeSkill, runProcess } from '../dist/index.js';

const RUNS = 300;
const WARM_UP = 30;
const GIGABYTE = 1024 ** 3;
const MB = 1024 * 1024;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function time(action) {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

function importTime(specifier) {
  const script = `const start = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - start);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' }));
}

const imports = Array.from({ length: 5 }, () => [importTime('../dist/index.js'), importTime('execa')]);
console.log('Import time in a fresh process, median of 5:');
console.log(
  `  @nexus/skills-exec ${median(imports.map(([entry]) => entry)).toFixed(1)} ms   execa ${median(imports.map(([, execa]) => execa)).toFixed(1)} ms (loaded on the first run)\n`,
);

const dir = await realpath(await mkdtemp(join(tmpdir(), 'nexus-exec-bench-')));
try {
  const services = new ServiceContainer().register('cwd', dir).register('permissions', resolvePreset('yolo', { cwd: dir }));
  const bashSafe = bashSafeSkill.factory(services);
  const contenders = {
    'execa("true") directly': () => execa('true', [], { cwd: dir }),
    'runProcess("true")': () => runProcess('true', [], { cwd: dir }),
    'bash_safe { command: "true" }': async () => {
      const result = await bashSafe.execute({ command: 'true' });
      if (!result.success) throw new Error(result.error);
    },
  };
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    // Interleaved, so drift in machine load hits every contender alike.
    for (const [name, action] of Object.entries(contenders)) {
      const elapsed = await time(action);
      if (run >= WARM_UP) samples[name].push(elapsed);
    }
  }
  const baseline = median(samples['execa("true") directly']);
  console.log(`Start-up cost, median of ${RUNS} runs each (interleaved; load average ${loadavg()[0].toFixed(1)}):`);
  for (const [name, values] of Object.entries(samples)) {
    console.log(`  ${name.padEnd(32)} ${median(values).toFixed(2).padStart(7)} ms   ${(median(values) / baseline).toFixed(2)}×`);
  }
  console.log('  target: bash_safe ≤ 1.30× execa\n');

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
    `  idle RSS ${(idle / MB).toFixed(1)} MB, peak RSS ${(peak / MB).toFixed(1)} MB, above idle ${((peak - idle) / MB).toFixed(1)} MB   target ≤ 64 MB`,
  );
  console.log(
    `  exit ${result.exitCode}, truncated ${result.truncated}, kept ${result.stdout.length} characters, ${seconds.toFixed(1)} s (${(1024 / seconds).toFixed(0)} MiB/s)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
