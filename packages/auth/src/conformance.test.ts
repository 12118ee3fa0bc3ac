import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const conformance = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const tsx = require.resolve('tsx/cli');
const client = fileURLToPath(new URL('../test/conformance-client.ts', import.meta.url));
const baseline = fileURLToPath(new URL('../test/conformance-baseline.yml', import.meta.url));

let dir: TestDir | undefined;
afterEach(() => dir?.cleanup());

describe("MCP's conformance suite, auth/* client scenarios (FileOAuthClient as Nexus's importer uses it)", () => {
  it('passes every scenario of the auth suite but those in the baseline (which must still fail)', async () => {
    dir = await testdir({});
    const command = `${process.execPath} ${tsx} ${client}`;
    const args = ['client', '--command', command, '--suite', 'auth', '--expected-failures', baseline, '-o', dir.join('results')];
    const { stdout } = await promisify(execFile)(process.execPath, [conformance, ...args], { cwd: dir.path, timeout: 120_000 }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`conformance failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      },
    );

    expect(stdout).toContain('Baseline check passed');
    expect(stdout).toMatch(/✓ auth\/pre-registration/);
  }, 150_000);
});
