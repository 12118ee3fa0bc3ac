import { type OidcStandIn, startOidcProvider } from '@nexus/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/server-fixture.js';

const AUDIENCE = 'https://nexus.example.test';
let idp: OidcStandIn;
let fixture: TestServer | undefined;

beforeAll(async () => {
  idp = await startOidcProvider({ audience: AUDIENCE, users: { alice: { email: 'alice@example.com', groups: ['platform'] } } });
});
afterAll(() => idp.close());
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const serveWithIssuer = () => startTestServer({ serve: { auth: { issuer: idp.issuer, audience: AUDIENCE, scopes: ['api'] } } });

describe('nexus serve with auth: an OAuth resource server beside the static token', () => {
  it("accepts the issuer's tokens and the static token", async () => {
    fixture = await serveWithIssuer();
    const { rpc } = fixture;

    expect(await rpc('/', 'list_agents', {}, { authorization: `Bearer ${await idp.token('alice')}` })).toMatchObject({
      status: 200,
      body: { result: { agents: [] } },
    });
    expect(await rpc('/', 'list_agents', {})).toMatchObject({ status: 200, body: { result: { agents: [] } } });
  });

  it('answers 401 with a challenge naming its protected resource metadata, which names the issuer', async () => {
    fixture = await serveWithIssuer();
    const { rpc, server } = fixture;
    const metadataUrl = `${server.url}/.well-known/oauth-protected-resource`;

    const bare = await fetch(server.url, { method: 'POST', body: '{}' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);

    const expired = await idp.sign({ iss: idp.issuer, aud: AUDIENCE, sub: 'alice', exp: Math.floor(Date.now() / 1000) - 600 });
    for (const token of [expired, 'a-guessed-static-token']) {
      const response = await fetch(server.url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{}' });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        new RegExp(`^Bearer resource_metadata="${metadataUrl}", error="invalid_token"`),
      );
    }
    const lacking = await idp.sign({ iss: idp.issuer, aud: AUDIENCE, sub: 'alice', exp: Math.floor(Date.now() / 1000) + 60 });
    expect((await rpc('/', 'list_agents', {}, { authorization: `Bearer ${lacking}` })).status).toBe(403);

    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: AUDIENCE,
      authorization_servers: [idp.issuer],
      scopes_supported: ['api'],
      bearer_methods_supported: ['header'],
    });
  });

  it('without auth keeps answering a wrong static token with 403 and no metadata', async () => {
    fixture = await startTestServer();
    expect((await fixture.rpc('/', 'list_agents', {}, { authorization: 'Bearer wrong-token-of-someone' })).status).toBe(403);
    expect((await fetch(`${fixture.server.url}/.well-known/oauth-protected-resource`)).status).toBe(401);
  });
});
