import { once } from 'node:events';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth } from '@modelcontextprotocol/client';
import { type OidcStandIn, startOidcProvider, type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearerChallenge, createBearerAuth, FileOAuthClient, OAuthLoginError } from './index.js';

let idp: OidcStandIn;
let resource: Server;
let resourceUrl: string;
let dir: TestDir;

/** A protected resource as MCP's authorization spec has it: its metadata (RFC 9728) names the issuer; `/mcp` wants its tokens. */
async function startProtectedResource(): Promise<void> {
  resource = createServer(async (request, response) => {
    if (request.url?.startsWith('/.well-known/oauth-protected-resource')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ resource: resourceUrl, authorization_servers: [idp.issuer], scopes_supported: ['api'] }));
      return;
    }
    const checked = await createBearerAuth({ issuer: idp.issuer, audience: resourceUrl, keyRefetchCooldownSeconds: 0 }).check(
      request.headers.authorization,
    );
    if (!checked.ok) {
      response.writeHead(401, { 'www-authenticate': bearerChallenge({ error: 'invalid_token', description: checked.reason }) }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(checked.caller));
  });
  resource.listen(0, '127.0.0.1');
  await once(resource, 'listening');
  resourceUrl = `http://127.0.0.1:${(resource.address() as AddressInfo).port}/mcp`;
}

beforeEach(async () => {
  dir = await testdir({});
  await startProtectedResource();
  idp = await startOidcProvider({ audience: resourceUrl, users: { alice: { email: 'alice@example.com' } } });
});

afterEach(async () => {
  await idp.close();
  resource.closeAllConnections();
  await new Promise((resolve) => resource.close(resolve));
  await dir.cleanup();
});

/** A person who approves at the provider whatever they are shown, as `alice`. */
const approveAsAlice = async (url: URL) => {
  const back = await idp.authorizeAs('alice', url);
  await fetch(back);
};

const callResource = async (token: string | undefined) =>
  fetch(resourceUrl, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (response) => ({
    status: response.status,
    body: response.status === 200 ? await response.json() : undefined,
  }));

describe('FileOAuthClient (an MCP server that wants OAuth)', () => {
  it('discovers the issuer, registers itself, signs in with PKCE on a loopback redirect, and keeps the tokens 0600', async () => {
    const file = dir.join('oauth', 'remote.json');
    const client = new FileOAuthClient({ serverUrl: resourceUrl, file });
    const shown: URL[] = [];

    await client.login(async (url) => {
      shown.push(url);
      await approveAsAlice(url);
    });

    expect(shown).toHaveLength(1);
    expect(shown[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(shown[0]?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const tokens = await client.tokens();
    expect(await callResource(tokens?.access_token)).toEqual({
      status: 200,
      body: expect.objectContaining({ kind: 'user', subject: 'alice' }),
    });
    expect(idp.grants).toMatchObject({ authorization_code: 1 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(dir.join('oauth'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).not.toHaveProperty('codeVerifier');
  });

  it('refreshes with the refresh token, without a person', async () => {
    const client = new FileOAuthClient({ serverUrl: resourceUrl, file: dir.join('remote.json') });
    await client.login(approveAsAlice);
    const before = (await client.tokens())?.access_token;

    expect(await auth(client, { serverUrl: resourceUrl })).toBe('AUTHORIZED');

    const after = (await client.tokens())?.access_token;
    expect(after).not.toBe(before);
    expect(idp.grants).toMatchObject({ authorization_code: 1, refresh_token: 1 });
    expect((await callResource(after)).status).toBe(200);
  });

  it('refuses a redirect with another state, and asks for a login where none was run', async () => {
    const client = new FileOAuthClient({ serverUrl: resourceUrl, file: dir.join('remote.json') });
    const forged = client.login(async (url) => {
      const back = await idp.authorizeAs('alice', url);
      back.searchParams.set('state', 'forged');
      await fetch(back);
    });
    await expect(forged).rejects.toThrow(OAuthLoginError);
    await expect(forged).rejects.toThrow(/another state/);
    expect(await client.tokens()).toBeUndefined();

    const never = new FileOAuthClient({ serverUrl: resourceUrl, file: dir.join('never.json') });
    await expect(auth(never, { serverUrl: resourceUrl })).rejects.toThrow(/needs a login: run `nexus mcp-servers login`/);
  });
});
