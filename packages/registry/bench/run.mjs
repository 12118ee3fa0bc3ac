// Benchmarks of the registry, printed side by side with their baselines (no pass/fail):
// 1. the pipeline's cost per call: registry.execute('echo') vs the skill's own execute();
// 2. start-up: a fresh process importing core + registry + utilitySkills and building definitions vs `node -e ''`.
import { spawnSync } from 'node:child_process';
import { ServiceContainer, resolvePreset } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function perCallMicroseconds(call, { batches = 200, batchSize = 2000 } = {}) {
  for (let index = 0; index < 20_000; index++) await call(); // warm-up: JIT and ajv compile
  const samples = [];
  for (let batch = 0; batch < batches; batch++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < batchSize; index++) await call();
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batchSize);
  }
  return median(samples);
}

function startupMilliseconds(args, runs = 25) {
  const samples = [];
  for (let run = 0; run < runs; run++) {
    const start = process.hrtime.bigint();
    const { status, stderr } = spawnSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
    if (status !== 0) throw new Error(stderr);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const services = new ServiceContainer();
services.register('cwd', process.cwd());
services.register('permissions', resolvePreset('sandboxed', { cwd: process.cwd() }));
const registry = new SkillRegistry(services).use(utilitySkills);
const skill = registry.require('echo');
const args = { message: 'hi' };

const direct = await perCallMicroseconds(() => skill.execute(args));
const piped = await perCallMicroseconds(() => registry.execute('echo', args));

const startupScript = `
import { ServiceContainer, resolvePreset } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';
const services = new ServiceContainer().register('permissions', resolvePreset('sandboxed', { cwd: process.cwd() }));
new SkillRegistry(services).use(utilitySkills).getDefinitions();
`;
const bare = startupMilliseconds(['-e', '']);
const loaded = startupMilliseconds(['--input-type=module', '-e', startupScript]);

const row = (label, ours, baseline, unit, target) =>
  console.log(`${label.padEnd(44)} ${ours.toFixed(2).padStart(9)} ${unit}  vs ${baseline.toFixed(2).padStart(9)} ${unit}  added ${(ours - baseline).toFixed(2).padStart(7)} ${unit}  ratio ${(ours / baseline).toFixed(2)}×  (target: ${target})`);

console.log('@nexus/registry benchmarks (medians)');
row('registry.execute("echo") vs skill.execute', piped, direct, 'µs', '≤ 2 µs added');
row('start-up: import + definitions vs node -e ""', loaded, bare, 'ms', '≤ 60 ms added');
