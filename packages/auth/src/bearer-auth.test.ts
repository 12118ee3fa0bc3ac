import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OidcStandIn, startOidcProvider } from '@nexus/test-utils';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerChallenge, createBearerAuth } from './index.js';

const AUDIENCE = 'https://nexus.example.test';
let idp: OidcStandIn;

beforeAll(async () => {
  idp = await startOidcProvider({ audience: AUDIENCE, users: { alice: { email: 'alice@example.com', groups: ['platform'] } } });
});
afterAll(() => idp.close());

const bearer = (token: string) => `Bearer ${token}`;
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

describe('createBearerAuth with an OpenID provider', () => {
  it("accepts the provider's tokens, with the person's claims, and the static token as the token holder", async () => {
    const auth = createBearerAuth({ token: 'a-static-token-of-one-person', issuer: idp.issuer, audience: AUDIENCE });

    const checked = await auth.check(bearer(await idp.token('alice')));

    expect(checked).toMatchObject({
      ok: true,
      caller: { kind: 'user', subject: 'alice', claims: { email: 'alice@example.com', groups: ['platform'], iss: idp.issuer } },
    });
    expect(await auth.check(bearer('a-static-token-of-one-person'))).toEqual({ ok: true, caller: { kind: 'token-holder' } });
    expect(await auth.check(bearer('another-static-token-xx'))).toMatchObject({ ok: false, status: 401 });
    expect(await auth.check(undefined)).toEqual({ ok: false, status: 401, reason: 'no bearer token' });
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 600 }, /has expired/],
    ['for another audience', { aud: 'https://elsewhere.example' }, /"aud" claim/],
    ['from another issuer', { iss: 'https://idp.elsewhere.example' }, /"iss" claim/],
    ['not yet valid', { nbf: Math.floor(Date.now() / 1000) + 600 }, /"nbf" claim/],
    ['without a subject', { sub: undefined }, /"sub" claim/],
  ])('refuses a token %s', async (_what, change, reason) => {
    const auth = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE });
    const claims = { iss: idp.issuer, aud: AUDIENCE, sub: 'alice', exp: inAMinute(), ...change };

    expect(await auth.check(bearer(await idp.sign(claims)))).toEqual({ ok: false, status: 401, reason: expect.stringMatching(reason) });
  });

  it('refuses alg none, HS256 signed with the public key, an unknown key and a tampered token', async () => {
    const auth = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE });
    const claims = { iss: idp.issuer, aud: AUDIENCE, sub: 'alice', exp: inAMinute() };
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    const publicJwk = ((await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: object[] }).keys[0];
    const hmacWithPublicKey = await idp.sign(claims, {
      alg: 'HS256',
      key: await crypto.subtle.importKey('raw', Buffer.from(JSON.stringify(publicJwk)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
    });
    const stranger = await generateKeyPair('RS256');
    const [header, payload, signature] = (await idp.token('alice')).split('.');
    const tampered = `${header}.${base64url({ ...JSON.parse(Buffer.from(payload as string, 'base64url').toString()), sub: 'mallory' })}.${signature}`;

    expect(await auth.check(bearer(unsigned))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/algorithm is not allowed|not a valid JWT/),
    });
    expect(await auth.check(bearer(hmacWithPublicKey))).toMatchObject({
      ok: false,
      reason: "the token's signature algorithm is not allowed",
    });
    expect(await auth.check(bearer(await idp.sign(claims, { key: stranger.privateKey, kid: 'stranger' })))).toMatchObject({
      ok: false,
      reason: 'no key of the issuer matches the token',
    });
    expect(await auth.check(bearer(tampered))).toMatchObject({ ok: false, reason: "the token's signature does not verify" });
  });

  it('picks up rotated keys, fetching the key set again at most once per cooldown', async () => {
    const patient = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, keyRefetchCooldownSeconds: 600 });
    const prompt = createBearerAuth({ issuer: idp.issuer, audience: AUDIENCE, keyRefetchCooldownSeconds: 0 });
    expect(await patient.check(bearer(await idp.token('alice')))).toMatchObject({ ok: true });
    expect(await prompt.check(bearer(await idp.token('alice')))).toMatchObject({ ok: true });

    await idp.rotateKeys();
    const rotated = await idp.token('alice');
    const before = idp.jwksFetches;

    expect(await prompt.check(bearer(rotated))).toMatchObject({ ok: true, caller: { subject: 'alice' } });
    expect(idp.jwksFetches).toBe(before + 1);
    expect(await patient.check(bearer(rotated))).toMatchObject({ ok: false, reason: 'no key of the issuer matches the token' });
    expect(await patient.check(bearer(rotated))).toMatchObject({ ok: false });
    expect(idp.jwksFetches).toBe(before + 1);
  });

  it('answers 503 while the issuer cannot be reached, and needs an audience and something to check', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const issuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));

    const auth = createBearerAuth({ issuer, audience: AUDIENCE });
    expect(await auth.check(bearer(await idp.token('alice')))).toMatchObject({
      ok: false,
      status: 503,
      reason: expect.stringContaining(issuer),
    });
    expect(() => createBearerAuth({})).toThrow(/needs a token, an issuer, or both/);
    expect(() => createBearerAuth({ issuer })).toThrow(/needs an audience/);
  });
});

describe('bearerChallenge', () => {
  it('names the resource metadata and the error, as RFC 6750 and RFC 9728 say', () => {
    expect(bearerChallenge()).toBe('Bearer realm="nexus"');
    expect(
      bearerChallenge({
        resourceMetadata: 'http://127.0.0.1:8765/.well-known/oauth-protected-resource',
        error: 'invalid_token',
        description: 'the token has "expired"',
      }),
    ).toBe(
      'Bearer resource_metadata="http://127.0.0.1:8765/.well-known/oauth-protected-resource", error="invalid_token", error_description="the token has expired"',
    );
  });
});
