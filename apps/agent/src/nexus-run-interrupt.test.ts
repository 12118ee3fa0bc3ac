import { execFileSync, spawn } from 'node:child_process';
import { type LlmStandIn, startLlmStandIn, type TestDir, testdir, waitUntil, writeTree } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH, ensureBuilt, nexusEnv } from './testing/nexus-process-fixture.js';

beforeAll(ensureBuilt, 180_000);

let dir: TestDir;
let llm: LlmStandIn;

beforeEach(async () => {
  dir = await testdir({ project: {}, config: {} });
  llm = await startLlmStandIn();
});

afterEach(async () => {
  await llm.close();
  await dir.cleanup();
});

/** Pids of processes whose command line is exactly `command`. */
function processesRunning(command: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', `^${command}$`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

describe('nexus run, interrupted', () => {
  it('Ctrl-C cancels the turn, stops the command the model started, and exits 130', async () => {
    // A duration no other process on the machine uses, to find this sleep by its command line.
    const sleep = `sleep 4${process.pid % 1000}.${Date.now() % 1000}`;
    await writeTree(dir.join('config', 'nexus'), {
      'nexus.config.json': JSON.stringify({
        preset: 'yolo',
        providers: { local: { type: 'openai-compatible', baseUrl: llm.url } },
        models: { fast: { provider: 'local', id: 'test-model' } },
        defaultModel: 'fast',
      }),
    });
    llm.script({ toolCalls: [{ name: 'bash_safe', arguments: { command: sleep } }] }, { text: 'never asked for' });
    const child = spawn(process.execPath, [CLI_PATH, 'run', 'Wait a while.'], {
      cwd: dir.join('project'),
      env: nexusEnv(dir.join('config')),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));

    await waitUntil(
      () => processesRunning(sleep).length > 0,
      () => `"${sleep}" to start (stderr: ${stderr})`,
    );
    child.kill('SIGINT');

    expect(await exited).toBe(130);
    expect(stderr).toContain(`→ bash_safe command=${sleep}`);
    expect(stderr).toContain('nexus: cancelled');
    await waitUntil(
      () => processesRunning(sleep).length === 0,
      () => `"${sleep}" to be stopped`,
    );
    expect(llm.requests).toHaveLength(1);
  });
});
