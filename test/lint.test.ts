import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

it('the formatter and linter (Biome) find nothing to change', () => {
  const biome = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
  const { status, stdout, stderr } = spawnSync(process.execPath, [biome, 'check', '--colors=off', '.'], { cwd: root, encoding: 'utf8' });
  expect(status, `${stdout}${stderr}\nRun \`pnpm format\` to apply the formatter's changes.`).toBe(0);
});
