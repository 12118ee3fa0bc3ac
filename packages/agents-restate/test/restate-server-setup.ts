import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { RestateUrls } from '../src/index.js';
import { startRestateServer } from '../src/testing.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one Restate server of the run's agent-server suite. */
    restate: RestateUrls;
  }
}

/** vitest globalSetup: one Restate server for the whole run of the agent-server suite on Restate. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nexus-restate-suite-'));
  const server = await startRestateServer(dataDir);
  project.provide('restate', { ingress: server.ingress, admin: server.admin });
  return async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}
