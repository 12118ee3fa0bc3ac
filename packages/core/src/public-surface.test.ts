import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as core from './index.js';

const sourceDir = fileURLToPath(new URL('.', import.meta.url));

describe('the @nexus/core barrel', () => {
  it('exports the contracts of DESIGN §3', () => {
    for (const name of [
      'ToolResult',
      'NexusError',
      'ServiceContainer',
      'defineSkill',
      'resolvePreset',
      'validatePath',
      'authorizePath',
      'normalizePath',
      'atomicWriteVerified',
      'expectOption',
      'formatSchemaIssues',
      'findToolRefusal',
      'detectLineEnding',
      'getSafeEnv',
      'validateToolName',
      'validateAgentId',
      'assertWithinCeiling',
    ]) {
      expect(core, name).toHaveProperty(name);
    }
  });

  it('has no heavy or process-spawning dependency: no module imports child_process or a package', () => {
    for (const file of readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const source = readFileSync(`${sourceDir}/${file}`, 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1] as string);
      for (const specifier of imports) {
        expect(
          specifier.startsWith('./') || (specifier.startsWith('node:') && specifier !== 'node:child_process'),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    }
  });
});
