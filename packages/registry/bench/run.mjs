// Benchmarks of the registry, printed side by side with their baselines (no pass/fail):
// 1. the pipeline's cost per call: registry.execute('echo') vs the skill's own execute();
// 2. the same with arguments sent as text ("10", "true", also inside an array), which validation coerces;
// 3. start-up: a fresh process importing core + registry + utilitySkills and building definitions vs `node -e ''`;
// 4. governance: the same call under 50 rules (none matching, so all are tried, among them argument
//    globs on another tool), and with an audit sink that queues each record, vs the call with neither.
import { spawnSync } from 'node:child_process';
import { defineSkill, resolvePreset, ServiceContainer, ToolResult } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';
import { median } from '../../../scripts/bench-stats.mjs';

/** Median cost per call of each function, measured in alternating batches so noise hits all alike. */
async function perCallMicroseconds(calls, { batches = 200, batchSize = 2000 } = {}) {
  for (const call of calls) for (let index = 0; index < 20_000; index++) await call(); // warm-up: JIT and ajv compile
  const samples = calls.map(() => []);
  for (let batch = 0; batch < batches; batch++) {
    for (const [which, call] of calls.entries()) {
      const start = process.hrtime.bigint();
      for (let index = 0; index < batchSize; index++) await call();
      samples[which].push(Number(process.hrtime.bigint() - start) / 1000 / batchSize);
    }
  }
  return samples.map(median);
}

/** Median wall time of spawning each command line, in alternating runs. */
function startupMilliseconds(commandLines, runs = 25) {
  const samples = commandLines.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [which, args] of commandLines.entries()) {
      const start = process.hrtime.bigint();
      const { status, stderr } = spawnSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
      if (status !== 0) throw new Error(stderr);
      samples[which].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return samples.map(median);
}

const services = new ServiceContainer();
services.register('cwd', process.cwd());
services.register('permissions', resolvePreset('sandboxed', { cwd: process.cwd() }));
const registry = new SkillRegistry(services).use(utilitySkills);
const skill = registry.require('echo');
const args = { message: 'hi' };

const [direct, piped] = await perCallMicroseconds([() => skill.execute(args), () => registry.execute('echo', args)]);

const typedSkill = defineSkill({
  name: 'typed',
  description: 'Takes typed arguments.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string' },
      offset: { type: 'integer', minimum: 1, default: 1 },
      limit: { type: 'integer', minimum: 1 },
      all: { type: 'boolean', default: false },
      edits: { type: 'array', items: { type: 'object', properties: { line: { type: 'integer' }, text: { type: 'string' } } } },
    },
    required: ['path'],
    additionalProperties: false,
  },
  create: () => () => ToolResult.ok('done'),
});
registry.register(typedSkill);
const typed = registry.require('typed');
const textArgs = { path: 'a.txt', offset: '10', limit: '5', all: 'true', edits: [{ line: '3', text: 'x' }] };
const [typedDirect, typedPiped] = await perCallMicroseconds([() => typed.execute(textArgs), () => registry.execute('typed', textArgs)]);

/** A registry like `registry` whose policy also holds `rules`, and whose options add `extra`. */
function governedRegistry(rules, extra = {}) {
  const governed = new ServiceContainer();
  governed.register('cwd', process.cwd());
  governed.register('permissions', resolvePreset('sandboxed', { cwd: process.cwd(), rules }));
  return new SkillRegistry(governed, extra).use(utilitySkills);
}
const fiftyRules = Array.from({ length: 50 }, (_, index) =>
  index % 2 === 0
    ? { tool: 'echo', match: { message: `deploy-${index} *` }, decision: 'deny' }
    : { tool: 'sleep', match: { label: `job-${index}` }, decision: 'ask' },
);
const queued = [];
const plain = governedRegistry([]);
const ruled = governedRegistry(fiftyRules);
const audited = governedRegistry([], {
  onAudit: (record) => {
    queued.push(record);
    if (queued.length > 10_000) queued.length = 0;
  },
});
const [plainCall, ruledCall, auditedCall] = await perCallMicroseconds([
  () => plain.execute('echo', args),
  () => ruled.execute('echo', args),
  () => audited.execute('echo', args),
]);

const startupScript = `
import { ServiceContainer, resolvePreset } from '@nexus/core';
import { SkillRegistry, utilitySkills } from '@nexus/registry';
const services = new ServiceContainer().register('permissions', resolvePreset('sandboxed', { cwd: process.cwd() }));
new SkillRegistry(services).use(utilitySkills).getDefinitions();
`;
const [bare, loaded] = startupMilliseconds([
  ['-e', ''],
  ['--input-type=module', '-e', startupScript],
]);

const row = (label, ours, baseline, unit, target) =>
  console.log(
    `${label.padEnd(44)} ${ours.toFixed(2).padStart(9)} ${unit}  vs ${baseline.toFixed(2).padStart(9)} ${unit}  added ${(ours - baseline).toFixed(2).padStart(7)} ${unit}  ratio ${(ours / baseline).toFixed(2)}×  (target: ${target})`,
  );

console.log('@nexus/registry benchmarks (medians, baseline and subject measured in alternating batches)');
row('registry.execute("echo") vs skill.execute', piped, direct, 'µs', '≤ 2 µs added');
row('with coerced text arguments vs skill.execute', typedPiped, typedDirect, 'µs', '≤ 2 µs added');
row('start-up: import + definitions vs node -e ""', loaded, bare, 'ms', '≤ 60 ms added');
row('with 50 rules vs no rules', ruledCall, plainCall, 'µs', '≤ 5 µs added');
row('with an audit sink vs none', auditedCall, plainCall, 'µs', '≤ 20 µs added');
