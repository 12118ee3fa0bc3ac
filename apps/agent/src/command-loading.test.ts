import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, nexusEnv, runNexus } from './testing/nexus-process-fixture.js';

beforeAll(ensureBuilt, 180_000);

// A module hook that names on stderr every package (@nexus's and zod) the process loads.
const TRACE_HOOKS = `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@nexus/') || specifier === 'zod') writeSync(2, 'loads ' + specifier + '\\n');
  return next(specifier, context);
}`;
const TRACE = `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(TRACE_HOOKS)}`)});`)}`;

describe('the command list', () => {
  it('loads no large package to parse a command line: each command loads its own when it runs', async () => {
    const { code, stderr } = await runNexus(['tools', '--families', 'fs'], {
      cwd: process.cwd(),
      env: { ...nexusEnv('/nonexistent/nexus-config'), NODE_OPTIONS: `--import=${TRACE}` },
    });
    expect(code).toBe(0);
    expect(stderr).toContain('loads @nexus/registry');
    for (const large of ['@nexus/mcp', '@nexus/agents', '@nexus/skills-agents']) expect(stderr).not.toContain(`loads ${large}`);
  });

  it('loads no config schema (zod) to print the help, which reads no config file', async () => {
    const { code, stderr } = await runNexus(['--help'], {
      cwd: process.cwd(),
      env: { ...nexusEnv('/nonexistent/nexus-config'), NODE_OPTIONS: `--import=${TRACE}` },
    });
    expect(code).toBe(0);
    expect(stderr).toContain('loads @nexus/core');
    expect(stderr).not.toContain('loads zod');
  });
});
