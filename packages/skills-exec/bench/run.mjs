// Benchmark of @nexus/skills-exec, run against the build (`pnpm build` first), printed beside its
// baseline measured in the same run (no pass/fail): bash_safe running `true` against calling execa
// directly (target: ≤ 1.3×), with the runner it wraps for reference. The runner's own benchmarks
// (import time, memory under a flood of output) are @nexus/process's.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { runProcess } from '@nexus/process';
import { execa } from 'execa';
import { bashSafeSkill } from '../dist/index.js';

const RUNS = 300;
const WARM_UP = 30;

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
  console.log('  target: bash_safe ≤ 1.30× execa');
} finally {
  await rm(dir, { recursive: true, force: true });
}
