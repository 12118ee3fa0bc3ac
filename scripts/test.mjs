// The test command: install, build, run every test once, and end with the plain total
// "N passed, N failed" computed from vitest's JSON report. Extra arguments go to vitest. On a
// Node.js older than the repository needs, it first re-runs itself under a new enough one from the
// npm registry (scripts/node-version.mjs).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureNode } from './node-version.mjs';

ensureNode();
const { installAndBuild } = await import('./pnpm.mjs');

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
let failed = 0;
let skipped = 0;
const failures = [];
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  skipped = results.numPendingTests + results.numTodoTests;
  // A failed file counts its failed tests, or 1 when none of them failed: it did not load, or a
  // hook (e.g. a beforeAll that threw) failed and its tests were skipped.
  for (const file of results.testResults) {
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    failed += file.status === 'failed' ? Math.max(1, failedTests.length) : failedTests.length;
    const path = file.name.slice(rootDir.length);
    for (const test of failedTests) failures.push(`${path} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${path}: ${firstLine(file.message)}`);
  }
} catch (error) {
  console.error(`No test report from vitest (${report}): ${error.message}`);
  failed = 1;
}
// The total and the exit status agree: vitest failing with nothing counted (an unhandled error,
// a crash, a timeout outside any test) is one failure.
if (status !== 0 && failed === 0) failed = 1;
// Named again at the end, where a CI log's tail shows them.
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);

function firstLine(text = '') {
  return text.split('\n', 1)[0].slice(0, 300);
}
