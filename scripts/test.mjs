// The test command: install, build, run every test once, and end with the plain total
// "N passed, N failed" computed from vitest's JSON report. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installAndBuild } from './pnpm.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const report = `${rootDir}.vitest-results.json`;

try {
  installAndBuild();
} catch (error) {
  console.error(error.message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
rmSync(report, { force: true });
const vitest = `${rootDir}node_modules/vitest/vitest.mjs`;
const { status } = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  {
    cwd: rootDir,
    stdio: 'inherit',
  },
);

let passed = 0;
let failed = 1;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  skipped = results.numPendingTests + results.numTodoTests;
  // A file that fails to load has no tests but is a failure all the same.
  const brokenFiles = results.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
  failed = results.numFailedTests + brokenFiles;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
