import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

// Every ```js block of a package README is a runnable example: it runs from the package's own
// directory (so `@nexus/...` imports resolve to the built packages) and must exit with status 0.
// Blocks meant as fragments use another fence (```ts, ```json, ```sh).
const examples = ['packages', 'apps']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
  .filter((dir) => existsSync(join(dir, 'README.md')))
  .flatMap((dir) =>
    [...readFileSync(join(dir, 'README.md'), 'utf8').matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match, index) => ({
      name: `${dir.slice(root.length + 1)} README example ${index + 1}`,
      dir,
      code: match[1] as string,
    })),
  );

// The root README's package table names every public package and the app, each with a link to its
// folder.
const publicPackages = ['packages', 'apps']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name)))
  .filter((dir) => existsSync(join(root, dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
  .filter(({ dir, manifest }) => !manifest.private || dir.startsWith('apps/'));

describe('the root README', () => {
  const table = readFileSync(join(root, 'README.md'), 'utf8').split('## Packages')[1]?.split('\n## ')[0] ?? '';

  it.each(publicPackages.map(({ dir, manifest }) => [manifest.name as string, dir]))('lists %s', (name, dir) => {
    const row = table.split('\n').find((line) => line.startsWith(`| [\`${dir.startsWith('apps/') ? dir : name}\`](${dir})`));
    expect(row, `no row for ${name} linking to ${dir}`).toBeDefined();
  });
});

describe('README examples', () => {
  it('there are examples to run', () => {
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(examples.map((example) => [example.name, example]))('%s runs', async (_name, { dir, code }) => {
    const file = join(dir, `.readme-example-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
    await writeFile(file, code);
    try {
      await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
    } finally {
      await rm(file, { force: true });
    }
  });
});
