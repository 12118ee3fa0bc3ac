import { freePort, waitUntil } from '@nexus/test-utils';
import { inject } from 'vitest';
import { type TestRuntimeHost, useRuntime } from '../../agents/test/server-fixture.js';
import { AGENT_OBJECT, type RestateUrls, startRestateRuntime } from '../src/index.js';
import { cancelInvocation, queryRows, sqlText } from '../src/restate-client.js';

/*
 * vitest setup file: packages/agents' agent-server suite, run in this project, serves the Restate
 * runtime — a worker over the run's one Restate server (restate-server-setup.ts) per fixture.
 * Files run one at a time (vitest.config.ts): a worker registers itself as the deployment of the
 * agents' virtual object, and there is one such deployment per Restate server.
 */

const agentRows = `target_service_name = ${sqlText(AGENT_OBJECT)}`;

async function admin(urls: RestateUrls, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(new URL(path, urls.admin), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`Restate's admin API answered ${method} ${path} with ${response.status}: ${await response.text()}`);
}

/** How long the cancelled invocations of a fixture's agents have to end before they are killed. */
const CANCELLED_END_WITHIN_MS = 3_000;

/**
 * Ends every agent's invocations and forgets them (their idempotency keys too) and every agent's
 * state. Cancelled first, so that each ends through its handler while its worker is there to hear
 * it: a killed one has its stream reset under the worker, whose SDK then logs "Premature close"
 * and "write after end" for it. Killed only if it has not ended (its worker gone, or a step that
 * does not stop).
 */
async function forgetAgents(urls: RestateUrls): Promise<void> {
  const invocations = (where: string) => queryRows<{ id: string }>(urls, `SELECT id FROM sys_invocation WHERE ${agentRows}${where}`);
  const openNow = () => invocations(" AND status != 'completed'");
  await Promise.all((await openNow()).map(({ id }) => cancelInvocation(urls, id)));
  await waitUntil(async () => (await openNow()).length === 0, 'the cancelled invocations to end', CANCELLED_END_WITHIN_MS).catch(() => {});
  await Promise.all((await openNow()).map(({ id }) => admin(urls, 'PATCH', `/invocations/${id}/kill`)));
  await waitUntil(async () => (await openNow()).length === 0, 'the killed invocations to end');
  await Promise.all((await invocations('')).map(({ id }) => admin(urls, 'PATCH', `/invocations/${id}/purge`)));
  const keys = await queryRows<{ service_key: string }>(
    urls,
    `SELECT DISTINCT service_key FROM state WHERE service_name = ${sqlText(AGENT_OBJECT)}`,
  );
  await Promise.all(
    keys.map(({ service_key }) => admin(urls, 'POST', `/services/${AGENT_OBJECT}/state`, { object_key: service_key, new_state: {} })),
  );
  await waitUntil(
    async () =>
      (await invocations('')).length === 0 &&
      (await queryRows(urls, `SELECT service_key FROM state WHERE service_name = ${sqlText(AGENT_OBJECT)} LIMIT 1`)).length === 0,
    'the agents to be forgotten',
  );
}

useRuntime({
  name: 'restate',
  open(): TestRuntimeHost {
    const urls = inject('restate');
    let endpointPort: number | undefined;
    return {
      // Started again on the same port: the same deployment, so that the turns pinned to it go on.
      async start(options) {
        endpointPort ??= await freePort();
        return startRestateRuntime({ ...options, ...urls, endpointPort });
      },
      async storedText() {
        const rows = await queryRows<{ value_utf8: string | null }>(
          urls,
          `SELECT value_utf8 FROM state WHERE service_name = ${sqlText(AGENT_OBJECT)}`,
        );
        return rows.map((row) => row.value_utf8 ?? '').join('\n');
      },
      close: () => forgetAgents(urls),
    };
  },
});
