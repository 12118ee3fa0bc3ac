// Benchmark of @nexus/skills-md, run against the build (`pnpm build` first), each figure beside a
// baseline measured in the same run (no pass/fail):
// - discovery of 500 packages, cold (a fresh Node process, module loading included) and warm
//   (goal: ≤ 150 ms cold), beside reading the same 500 SKILL.md files with plain fs: the library
//   listing them (frontmatter scanned), the library with its first 15 packages loaded, and
//   loadSkillPackages parsing and validating every one (`nexus skills list` / `check`);
// - a command skill running `true` beside bash_safe running `true` (goal: ≤ 1.2×).
// The living-skills figures (reload checks, edit to notification, search) are in living-skills.mjs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolvePreset, ServiceContainer } from '@nexus/core';
import { median, printRatios, sampleInterleaved } from '../../../scripts/bench-stats.mjs';
import { bashSafeSkill } from '../../skills-exec/dist/index.js';
import { loadSkillPackages, openSkillLibrary } from '../dist/index.js';

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
  const timed = (body) =>
    `const start = performance.now(); const skillsMd = await import('./dist/index.js'); ${body} process.stdout.write(String(performance.now() - start));`;
  const check = (packages) => `if (${packages}.length !== ${PACKAGES}) throw new Error('lost packages');`;
  const contenders = {
    'plain readdir + readFile of each SKILL.md': `const start = performance.now(); const { readdir, readFile } = await import('node:fs/promises'); const root = ${JSON.stringify(root)}; const names = await readdir(root); await Promise.all(names.map((name) => readFile(root + '/' + name + '/SKILL.md', 'utf8'))); process.stdout.write(String(performance.now() - start));`,
    'openSkillLibrary: listed (import included)': timed(
      `const library = await skillsMd.openSkillLibrary(${JSON.stringify({ ...options, watch: false })}); ${check('library.packages')}`,
    ),
    '  … and its first 15 packages loaded': timed(
      `const library = await skillsMd.openSkillLibrary(${JSON.stringify({ ...options, watch: false })}); await library.refresh(); ${check('library.packages')}`,
    ),
    'loadSkillPackages: all parsed and validated': timed(
      `const loaded = await skillsMd.loadSkillPackages(${JSON.stringify(options)}); ${check('loaded.packages')}`,
    ),
  };
  const cold = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let run = 0; run < COLD_RUNS; run++) for (const [name, script] of Object.entries(contenders)) cold[name].push(coldRun(script));
  const baseline = median(cold['plain readdir + readFile of each SKILL.md']);
  console.log(`Discovery of ${PACKAGES} packages, cold (fresh process, ${COLD_RUNS} runs interleaved, median):`);
  for (const [name, samples] of Object.entries(cold)) {
    console.log(`  ${name.padEnd(44)} ${median(samples).toFixed(1).padStart(7)} ms   ${(median(samples) / baseline).toFixed(2)}×`);
  }
  console.log('  goal: listing ≤ 150 ms cold');
  const warm = await sampleInterleaved(
    {
      'openSkillLibrary (warm)': async () => (await openSkillLibrary({ ...options, watch: false })).close(),
      'loadSkillPackages (warm)': () => loadSkillPackages(options),
    },
    { runs: 20, warmUp: 3 },
  );
  for (const [name, samples] of Object.entries(warm))
    console.log(`  ${`${name}, median of 20`.padEnd(44)} ${median(samples).toFixed(1).padStart(7)} ms`);

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
