import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const changesetDir = join(root, '.changeset');
const config = JSON.parse(readFileSync(join(changesetDir, 'config.json'), 'utf8')) as { ignore: string[] };
const packageNames = new Set(
  ['packages', 'apps']
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name, 'package.json')))
    .filter((manifest) => existsSync(manifest))
    .map((manifest) => JSON.parse(readFileSync(manifest, 'utf8')).name as string),
);
const changesets = readdirSync(changesetDir)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .map((file) => {
    const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(changesetDir, file), 'utf8'))?.[1] ?? '';
    const releases = [...frontmatter.matchAll(/^"([^"]+)": (major|minor|patch)$/gm)].map((match) => match[1] as string);
    return { file, lines: frontmatter.split('\n').filter(Boolean).length, releases };
  });

// `changeset version` refuses the whole release when one changeset is malformed, names a package that
// does not exist, or mixes an ignored package with others.
describe.each(changesets.map((changeset) => [changeset.file, changeset]))('the changeset %s', (_file, changeset) => {
  it('names existing packages, each with major, minor or patch', () => {
    expect(changeset.releases.length).toBeGreaterThan(0);
    expect(changeset.releases.length).toBe(changeset.lines);
    expect(changeset.releases.filter((name) => !packageNames.has(name))).toEqual([]);
  });

  it('does not mix an ignored package with others', () => {
    const ignored = changeset.releases.filter((name) => config.ignore.includes(name));
    expect(ignored.length === 0 || ignored.length === changeset.releases.length).toBe(true);
  });
});
