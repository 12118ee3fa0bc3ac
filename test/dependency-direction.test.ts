import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A row of DESIGN §1's dependency direction: which workspace packages `from` may depend on. */
interface DirectionRule {
  /** The package name, or a pattern for a group of packages. */
  readonly from: string | RegExp;
  /** Workspace packages it may depend on; `'*'` for any. */
  readonly may: readonly string[] | '*';
  /** Workspace packages it may use in its tests only (devDependencies), besides {@link TEST_ONLY}. */
  readonly mayForTests?: readonly string[];
  /** Third-party packages it must not depend on, with the reason. */
  readonly never?: { readonly pattern: RegExp; readonly reason: string };
  /** The rule as DESIGN §1 states it, for the failure message. */
  readonly rule: string;
}

/** DESIGN §1, top to bottom; the first row whose `from` matches a package applies. */
const DIRECTION: readonly DirectionRule[] = [
  { from: '@nexus/core', may: [], rule: 'core depends on no other package' },
  { from: '@nexus/process', may: ['@nexus/core'], rule: 'process → core only' },
  { from: '@nexus/registry', may: ['@nexus/core'], rule: 'registry → core only' },
  { from: '@nexus/auth', may: ['@nexus/core'], rule: 'auth → core only' },
  {
    from: '@nexus/skills-git',
    may: ['@nexus/core', '@nexus/process', '@nexus/skills-exec'],
    rule: 'skills-git → core, process and skills-exec (the one family → family exception)',
  },
  {
    from: '@nexus/skills-agents',
    may: ['@nexus/core', '@nexus/process'],
    never: { pattern: /^(ai|@ai-sdk\/.+)$/, reason: 'skills-agents installs without any LLM package' },
    rule: 'skill families → core and process only',
  },
  { from: '@nexus/skills-md', may: ['@nexus/core', '@nexus/process'], rule: 'skill families → core and process only (skills-md too)' },
  { from: /^@nexus\/skills-/, may: ['@nexus/core', '@nexus/process'], rule: 'skill families → core and process only' },
  {
    from: '@nexus/mcp',
    may: ['@nexus/core', '@nexus/process', '@nexus/registry', '@nexus/auth'],
    // Its tests serve real skill packages' instructions and files as prompts and resources.
    mayForTests: ['@nexus/skills-md'],
    rule: 'mcp → core, process (stdio servers it imports), registry and auth (who calls it over HTTP)',
  },
  {
    from: '@nexus/agents',
    may: ['@nexus/core', '@nexus/registry', '@nexus/process', '@nexus/auth'],
    // The loop's tests edit real files through the file skills; the server's drive agents through the agent-control skills.
    mayForTests: ['@nexus/skills-fs', '@nexus/skills-agents'],
    rule: 'agents → core, registry, process and auth (who calls the agent server)',
  },
  {
    from: '@nexus/agents-restate',
    may: ['@nexus/core', '@nexus/agents', '@nexus/registry', '@nexus/process'],
    // Its tests run agents whose tools edit real files and run real processes (a cancel kills one).
    mayForTests: ['@nexus/skills-fs', '@nexus/skills-exec'],
    rule: 'agents-restate → agents and what agents may use',
  },
  {
    from: '@nexus/console',
    may: [],
    // The page is static assets; its tests drive it against a real agent server.
    mayForTests: ['@nexus/agents', '@nexus/core', '@nexus/skills-fs', '@nexus/skills-agents', '@nexus/skills-md'],
    rule: 'the console ships static assets and depends on no workspace package',
  },
  { from: '@nexus/test-utils', may: [], rule: 'the test utilities depend on no workspace package' },
  { from: '@nexus/tsconfig', may: [], rule: 'the shared compiler settings depend on no workspace package' },
  { from: '@nexus/agent', may: '*', rule: 'apps/agent composes everything' },
];

/** Development dependencies that only build and test a package; any package may have them. */
const TEST_ONLY = new Set(['@nexus/test-utils', '@nexus/tsconfig', '@nexus/registry']);

/** Every arrow of `manifest` that DESIGN §1 does not allow, as messages naming the arrow and the rule. */
function findBrokenArrows(manifest: Manifest, table: readonly DirectionRule[]): string[] {
  const { name } = manifest;
  const row = table.find(({ from }) => (typeof from === 'string' ? from === name : from.test(name)));
  if (!row) return [`${name} has no row in the dependency-direction table; add one that follows DESIGN §1`];
  const sections = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;
  const broken: string[] = [];
  for (const section of sections) {
    for (const dependency of Object.keys(manifest[section] ?? {})) {
      if (row.never?.pattern.test(dependency)) broken.push(`${name} → ${dependency} (${section}): ${row.never.reason}`);
      if (!dependency.startsWith('@nexus/') || row.may === '*' || row.may.includes(dependency)) continue;
      if (section === 'devDependencies' && (TEST_ONLY.has(dependency) || row.mayForTests?.includes(dependency))) continue;
      broken.push(`${name} → ${dependency} (${section}) breaks DESIGN §1: ${row.rule}`);
    }
  }
  return broken;
}

const manifests = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((dir) => join(root, group, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as Manifest),
);

describe('dependency direction (DESIGN §1)', () => {
  it('reads every package', () => {
    expect(manifests.map((manifest) => manifest.name)).toEqual(expect.arrayContaining(['@nexus/core', '@nexus/process', '@nexus/agent']));
  });

  it.each(manifests.map((manifest) => [manifest.name, manifest]))('%s depends only along the allowed arrows', (_name, manifest) => {
    expect(findBrokenArrows(manifest, DIRECTION)).toEqual([]);
  });

  it('names the arrow that breaks the rule', () => {
    const family: Manifest = {
      name: '@nexus/skills-fs',
      dependencies: { '@nexus/core': 'workspace:^', '@nexus/skills-exec': 'workspace:^', '@nexus/registry': 'workspace:^' },
      devDependencies: { '@nexus/registry': 'workspace:*', '@nexus/mcp': 'workspace:*' },
    };
    expect(findBrokenArrows(family, DIRECTION)).toEqual([
      '@nexus/skills-fs → @nexus/skills-exec (dependencies) breaks DESIGN §1: skill families → core and process only',
      '@nexus/skills-fs → @nexus/registry (dependencies) breaks DESIGN §1: skill families → core and process only',
      '@nexus/skills-fs → @nexus/mcp (devDependencies) breaks DESIGN §1: skill families → core and process only',
    ]);
    expect(findBrokenArrows({ name: '@nexus/skills-agents', peerDependencies: { '@ai-sdk/openai': '^2.0.0' } }, DIRECTION)).toEqual([
      '@nexus/skills-agents → @ai-sdk/openai (peerDependencies): skills-agents installs without any LLM package',
    ]);
    expect(findBrokenArrows({ name: '@nexus/newcomer' }, DIRECTION)).toEqual([
      '@nexus/newcomer has no row in the dependency-direction table; add one that follows DESIGN §1',
    ]);
  });
});
