// Benchmark of @nexus/skills-exec, run against the build (`pnpm build` first), printed beside its
// baseline measured in the same run (no pass/fail): bash_safe running `true` against calling execa
// directly (target: ≤ 1.3×), with the runner it wraps for reference. The runner's own benchmarks
// (import time, memory under a flood of output) are @nexus/process's.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { runProcess } from '@nexus/process';
import { execa } from 'execa';
import { printRatios, sampleInterleaved } from '../../../scripts/bench-stats.mjs';
import { bashSafeSkill } from '../dist/index.js';

const RUNS = 300;
const WARM_UP = 30;

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
  const samples = await sampleInterleaved(contenders, { runs: RUNS, warmUp: WARM_UP });
  console.log('Start-up cost:');
  printRatios(samples, 'execa("true") directly');
  console.log('  target: bash_safe ≤ 1.30× execa');
} finally {
  await rm(dir, { recursive: true, force: true });
}
