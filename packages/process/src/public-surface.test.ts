import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceDir = fileURLToPath(new URL('.', import.meta.url));

describe('the public surface of @nexus/process', () => {
  it('exports exactly the runner, long-lived services, command isolation and its settings, the splitter, working-directory resolution, run formatting and the timeout parameter', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'DEFAULT_KILL_GRACE_MS',
      'DEFAULT_MAX_OUTPUT_BYTES',
      'DEFAULT_RUN_TIMEOUT_MS',
      'DEFAULT_SERVICE_KILL_GRACE_MS',
      'DEFAULT_TIMEOUT_SECONDS',
      'EXEC_SANDBOX_MODES',
      'MAX_TIMEOUT_SECONDS',
      'MIN_TIMEOUT_SECONDS',
      'RUN_RESULT_DATA_SCHEMA',
      'RUN_TAG_VARIABLE',
      'clampTimeoutSeconds',
      'formatRunOutput',
      'parseExecSettings',
      'resolveCommandIsolation',
      'resolveCommandSandbox',
      'resolveWorkingDirectory',
      'runProcess',
      'runResultData',
      'splitCommand',
      'startService',
      'timeoutParameter',
      'toolResultFromRun',
    ]);
  });

  it('exports test helpers from ./testing', async () => {
    expect(Object.keys(await import('./testing.js')).sort()).toEqual([
      'bubblewrapSkipReason',
      'isProcessAlive',
      'processesWithArgument',
      'startSandboxTargets',
      'waitForFileScript',
    ]);
  });

  it('loads execa on the first run rather than at import (families import this package at start-up)', () => {
    for (const file of readdirSync(sourceDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const source = readFileSync(`${sourceDir}/${file}`, 'utf8');
      expect(source, file).not.toMatch(/^import (?!type )[^;]*from 'execa'/m);
    }
  });
});
