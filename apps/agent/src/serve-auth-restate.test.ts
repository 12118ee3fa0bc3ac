import { freePort, type RestateServer, startRestateServer } from '@nexus/agents-restate/testing';
import { type OidcStandIn, startOidcProvider, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { standInModelConfig } from './testing/nexus-process-fixture.js';
import { serveInProcess } from './testing/serve-in-process.js';

const AUDIENCE = 'https://nexus.example.test';
let dir: TestDir | undefined;
let idp: OidcStandIn | undefined;
let restate: RestateServer | undefined;
afterEach(async () => {
  await restate?.close();
  await idp?.close();
  await dir?.cleanup();
});

describe('nexus serve --runtime restate with auth (people of an OpenID issuer)', () => {
  it("serves on the Restate runtime, each person's agents their own: another person neither lists nor destroys them", async () => {
    dir = await testdir({ project: {}, config: {}, state: {}, restate: {} });
    idp = await startOidcProvider({
      audience: AUDIENCE,
      users: { alice: { email: 'alice@example.com' }, bob: { email: 'bob@example.com' } },
    });
    restate = await startRestateServer(dir.join('restate'));
    const config = { ...standInModelConfig('http://127.0.0.1:1'), auth: { issuer: idp.issuer, audience: AUDIENCE } };
    await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(config) });
    const runtime = ['--runtime', 'restate', '--restate', restate.ingress, '--restate-admin', restate.admin];
    const server = await serveInProcess(['--no-console', '--families', 'fs', ...runtime, '--restate-port', String(await freePort())], {
      cwd: dir.join('project'),
      configHome: dir.join('config'),
      env: { XDG_STATE_HOME: dir.join('state'), HOME: dir.path },
    });
    try {
      const [alice, bob] = [await idp.token('alice'), await idp.token('bob')];
      const call = async (token: string, method: string, params: object = {}) =>
        (await (await server.rpc(method, params, token)).json()) as {
          result?: { agents?: Array<{ agent_id: string }> };
          error?: { message: string };
        };

      expect(await call(alice, 'create_agent', { agent_id: 'hers' })).toMatchObject({ result: { agent_id: 'hers' } });

      expect((await call(bob, 'list_agents')).result?.agents).toEqual([]);
      expect((await call(bob, 'destroy_agent', { agent_id: 'hers' })).error?.message).toBe('Agent "hers" is not yours (bob).');
      expect((await call(alice, 'list_agents')).result?.agents?.map((agent) => agent.agent_id)).toEqual(['hers']);
      expect((await call(server.token, 'list_agents')).result?.agents?.map((agent) => agent.agent_id)).toEqual(['hers']);
      expect(await call(alice, 'destroy_agent', { agent_id: 'hers' })).toMatchObject({ result: { success: true } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
