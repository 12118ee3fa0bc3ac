import { type OidcStandIn, startOidcProvider } from '@nexus/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge, createBearerAuth, protectedResourceMetadata, type UserEntry } from './index.js';

const AUDIENCE = 'https://nexus.example.test';
let idp: OidcStandIn;

beforeAll(async () => {
  idp = await startOidcProvider({
    audience: AUDIENCE,
    users: {
      alice: { email: 'alice@example.com', groups: ['platform'] },
      bob: { email: 'Bob@Example.com' },
      mallory: { email: 'mallory@example.com.evil.test', groups: ['platformers'] },
    },
  });
});
afterAll(() => idp.close());

const USERS: UserEntry[] = [
  { match: { groups: 'platform' }, preset: 'trusted', admin: true },
  { match: { email: '*@example.com' }, preset: 'sandboxed', block: ['~/secrets'] },
];

describe('auth.users: who among the issuer’s people may call', () => {
  it('admits a token by the first entry its claims match (groups, then an email glob, letter case ignored)', async () => {
    const auth = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, users: USERS });

    expect(await auth.check(`Bearer ${await idp.token('alice')}`)).toMatchObject({
      ok: true,
      caller: { subject: 'alice', entry: USERS[0] },
    });
    expect(await auth.check(`Bearer ${await idp.token('bob')}`)).toMatchObject({ ok: true, caller: { subject: 'bob', entry: USERS[1] } });
  });

  it('refuses a valid token no entry admits with 403, saying whose token it is', async () => {
    const auth = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, users: USERS });

    expect(await auth.check(`Bearer ${await idp.token('mallory')}`)).toEqual({
      ok: false,
      status: 403,
      reason: 'no entry of auth.users admits this token (sub "mallory", email "mallory@example.com.evil.test", groups ["platformers"])',
    });
  });

  it('matches sub exactly and reads the groups from the configured claim', async () => {
    const auth = createBearerAuth({
      issuer: idp.issuer,
      audience: AUDIENCE,
      groupsClaim: 'https://nexus.example.test/groups',
      users: [{ match: { sub: 'carol', groups: ['ops', 'platform'] } }],
    });
    const claims = { iss: idp.issuer, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 60 };

    const carol = await idp.sign({ ...claims, sub: 'carol', 'https://nexus.example.test/groups': ['platform'] });
    expect(await auth.check(`Bearer ${carol}`)).toMatchObject({ ok: true });
    const carolWithoutGroup = await idp.sign({ ...claims, sub: 'carol', groups: ['platform'] });
    expect(await auth.check(`Bearer ${carolWithoutGroup}`)).toMatchObject({ ok: false, status: 403 });
  });

  it('admits every valid token without users, with no entry', async () => {
    const auth = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE });
    const checked = await auth.check(`Bearer ${await idp.token('mallory')}`);
    expect(checked.ok && checked.caller.kind === 'user' && checked.caller.entry).toBe(undefined);
  });
});

describe('auth.scopes', () => {
  it('admits a token carrying every configured scope and refuses one lacking any with 403 insufficient_scope', async () => {
    const token = `Bearer ${await idp.token('alice')}`; // the provider grants scope "api"
    expect(await createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, scopes: ['api'] }).check(token)).toMatchObject({ ok: true });
    expect(await createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, scopes: ['api', 'admin'] }).check(token)).toEqual({
      ok: false,
      status: 403,
      error: 'insufficient_scope',
      reason: 'the token lacks the scope admin',
    });
    expect(bearerChallenge({ error: 'insufficient_scope', scope: 'api admin' })).toBe(
      'Bearer error="insufficient_scope", scope="api admin"',
    );
  });

  it('publishes them in the protected resource metadata', () => {
    expect(protectedResourceMetadata({ issuer: idp.issuer, audience: AUDIENCE, scopes: ['api'] })).toEqual({
      resource: AUDIENCE,
      authorization_servers: [idp.issuer],
      scopes_supported: ['api'],
      bearer_methods_supported: ['header'],
    });
  });
});
