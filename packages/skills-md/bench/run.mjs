// Benchmark of @nexus/skills-md, run against the build (`pnpm build` first), each figure beside a
// baseline measured in the same run (no pass/fail):
// - discovery and loading of 500 packages, cold (a fresh Node process, module loading included)
//   and warm (goal: ≤ 150 ms cold), beside reading the same 500 SKILL.md files with plain fs;
// - a command skill running `true` beside bash_safe running `true` (goal: ≤ 1.2×).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { median, printRatios, sampleInterleaved } from '../../../scripts/bench-stats.mjs';
import { bashSafeSkill } from '../../skills-exec/dist/index.js';
import { loadSkillPackages } from '../dist/index.js';

const PACKAGES = 500;
const COLD_RUNS = 15;
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nexus-skills-md-bench-')));
const root = join(dir, 'config', 'nexus', 'skills');
const work = join(dir, 'work');
mkdirSync(work, { recursive: true });
for (let index = 0; index < PACKAGES; index++) {
  const folder = join(root, `skill-${index}`);
  mkdirSync(join(folder, 'scripts'), { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    `---\nname: skill-${index}\ndescription: Benchmark skill number ${index}; it converts things.\ncommand: "sh scripts/run.sh {input} --to {format}"\nparameters:\n  input: { type: path, required: true }\n  format: { type: string, enum: [html, pdf], default: html }\n---\n# Skill ${index}\n\nInstructions.\n`,
  );
  writeFileSync(join(folder, 'README.md'), '# skill\n');
  writeFileSync(join(folder, 'scripts', 'run.sh'), 'echo ok\n');
}
const options = {
  cwd: work,
  configDirectory: join(dir, 'config', 'nexus'),
  stateDirectory: join(dir, 'state'),
  homeDirectory: join(dir, 'home'),
};

function coldRun(script) {
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    }).toString(),
  );
}

try {
  const load = `const start = performance.now(); const { loadSkillPackages } = await import('./dist/index.js'); const loaded = await loadSkillPackages(${JSON.stringify(options)}); if (loaded.packages.length !== ${PACKAGES}) throw new Error('lost packages'); process.stdout.write(String(performance.now() - start));`;
  const plain = `const start = performance.now(); const { readdir, readFile } = await import('node:fs/promises'); const root = ${JSON.stringify(root)}; const names = await readdir(root); await Promise.all(names.map((name) => readFile(root + '/' + name + '/SKILL.md', 'utf8'))); process.stdout.write(String(performance.now() - start));`;
  const cold = { load: [], plain: [] };
  for (let run = 0; run < COLD_RUNS; run++) {
    cold.load.push(coldRun(load));
    cold.plain.push(coldRun(plain));
  }
  console.log(`Discovery of ${PACKAGES} packages, cold (fresh process, ${COLD_RUNS} runs, median):`);
  console.log(`  plain readdir + readFile of each SKILL.md   ${median(cold.plain).toFixed(1).padStart(7)} ms   1.00×`);
  console.log(
    `  loadSkillPackages (import included)         ${median(cold.load).toFixed(1).padStart(7)} ms   ${(median(cold.load) / median(cold.plain)).toFixed(2)}×`,
  );
  console.log('  goal: loadSkillPackages ≤ 150 ms cold');
  const warm = await sampleInterleaved({ 'loadSkillPackages (warm)': () => loadSkillPackages(options) }, { runs: 20, warmUp: 3 });
  console.log(`  loadSkillPackages (warm, median of 20)      ${median(warm['loadSkillPackages (warm)']).toFixed(1).padStart(7)} ms`);

  writeFileSync(join(root, 'skill-0', 'SKILL.md'), '---\nname: skill-0\ndescription: Runs true.\ncommand: "true"\n---\n');
  const { family } = await loadSkillPackages(options);
  const services = new ServiceContainer().register('cwd', work).register('permissions', resolvePreset('yolo', { cwd: work }));
  const commandSkill = family.skills.find((spec) => spec.name === 'skill-0').factory(services);
  const bashSafe = bashSafeSkill.factory(services);
  const samples = await sampleInterleaved(
    {
      'bash_safe { command: "true" }': async () => {
        const result = await bashSafe.execute({ command: 'true' });
        if (!result.success) throw new Error(result.error);
      },
      'skill-0 (command: "true")': async () => {
        const result = await commandSkill.execute({});
        if (!result.success) throw new Error(result.error);
      },
    },
    { runs: 200, warmUp: 20 },
  );
  console.log('\nA command skill against bash_safe:');
  printRatios(samples, 'bash_safe { command: "true" }');
  console.log('  goal: skill-0 ≤ 1.20× bash_safe');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
