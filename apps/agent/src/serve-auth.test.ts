import { readFile } from 'node:fs/promises';
import { type OidcStandIn, startOidcProvider, type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { serveInProcess } from './testing/serve-in-process.js';

const AUDIENCE = 'https://nexus.example.test';
let dir: TestDir | undefined;
let idp: OidcStandIn | undefined;
afterEach(async () => {
  await idp?.close();
  await dir?.cleanup();
});

/** Runs `nexus serve --port 0 --families fs <extraArgs>` with `auth` in the user's config until it listens. */
async function serveWithAuth(auth: Record<string, unknown>, extraArgs: string[] = ['--no-console']) {
  dir = await testdir({ project: {}, config: {}, state: {} });
  await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify({ auth }) });
  const env = { XDG_STATE_HOME: dir.join('state'), HOME: dir.path };
  const server = await serveInProcess([...extraArgs, '--families', 'fs'], {
    cwd: dir.join('project'),
    configHome: dir.join('config'),
    env,
  });
  return {
    ...server,
    staticToken: server.token,
    rpc: (token: string, method: string, params: object = {}) => server.rpc(method, params, token),
  };
}

describe('nexus serve — people of an OpenID issuer (auth in the user config)', () => {
  it("publishes the resource metadata and serves the issuer's tokens beside the static one", async () => {
    idp = await startOidcProvider({ audience: AUDIENCE, users: { alice: { email: 'alice@example.com' } } });
    const server = await serveWithAuth({ issuer: idp.issuer, audience: AUDIENCE });
    try {
      const metadata = await fetch(`${server.url}/.well-known/oauth-protected-resource`);
      expect(await metadata.json()).toMatchObject({ resource: AUDIENCE, authorization_servers: [idp.issuer] });
      const listed = await server.rpc(await idp.token('alice'), 'list_agents');
      expect(listed.status).toBe(200);
      expect(await listed.json()).toMatchObject({ result: { agents: [] } });
      const refused = await server.rpc('not-a-token-of-anyone', 'list_agents');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      await server.stop();
    }
  });

  it("records a person's calls by their subject, and no token reaches the output, the answers or the audit log", async () => {
    idp = await startOidcProvider({ audience: AUDIENCE, users: { carol: { groups: ['ops'] } } });
    const server = await serveWithAuth({ issuer: idp.issuer, audience: AUDIENCE, users: [{ match: { groups: 'ops' }, admin: true }] });
    try {
      const token = await idp.token('carol');
      await writeTree(dir?.join('project') as string, { 'notes.md': 'hello' });
      const ran = await server.rpc(token, 'run_tool', { name: 'read_file', arguments: { path: 'notes.md' } });
      expect(await ran.json()).toMatchObject({ result: { success: true } });
      const expired = await idp.sign({ iss: idp.issuer, aud: AUDIENCE, sub: 'carol', exp: Math.floor(Date.now() / 1000) - 600 });
      const refused = await server.rpc(expired, 'list_agents');
      const answer = `${refused.headers.get('www-authenticate')} ${await refused.text()}`;
      expect(answer).toContain('expired');

      await server.stop();
      const audit = await readFile(dir?.join('state', 'nexus', 'audit.jsonl') as string, 'utf8');
      expect(audit).toContain('"tokenHolder":"carol"');
      for (const secret of [token, expired, server.staticToken]) {
        for (const [where, text] of Object.entries({ answer, audit, stdout: server.stdout(), stderr: server.stderr() })) {
          expect(text.includes(secret), `a token in ${where}`).toBe(false);
        }
      }
    } finally {
      await server.stop();
    }
  });

  it('offers the console a sign-in through the issuer with auth.consoleClientId', async () => {
    idp = await startOidcProvider({ audience: AUDIENCE, users: {} });
    const server = await serveWithAuth({ issuer: idp.issuer, audience: AUDIENCE, scopes: ['api'], consoleClientId: 'nexus-console' }, []);
    try {
      const response = await fetch(`${server.url}/console/sign-in.json`);
      expect(await response.json()).toEqual({ issuer: idp.issuer, clientId: 'nexus-console', scope: 'openid api', resource: AUDIENCE });
      expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' ${idp.issuer}`);
    } finally {
      await server.stop();
    }
  });
});
