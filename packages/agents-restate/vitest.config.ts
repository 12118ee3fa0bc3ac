import { defineProject } from 'vitest/config';

/*
 * What this package's project adds to the root config's (vitest.config.ts at the repository root):
 * packages/agents' agent-server suite, run again on the Restate runtime (specs/agent-server.md §10)
 * against one Restate server for the run. The suite's files are written once, in packages/agents,
 * and take their runtime from its test fixture (startTestServer); the setup file points that at
 * the Restate runtime here. @nexus/agents cannot depend on this package (it depends on @nexus/agents).
 */
export default defineProject({
  test: {
    include: ['../agents/src/agent-server*.test.ts'],
    globalSetup: ['test/restate-server-setup.ts'],
    setupFiles: ['test/server-suite-setup.ts'],
    // Each fixture's worker registers itself as the one deployment of the agents' object: one file at a time.
    fileParallelism: false,
  },
});
