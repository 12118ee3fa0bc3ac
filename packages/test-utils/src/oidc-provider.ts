import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/** A key jose signs with. */
type SigningKeyLike = Parameters<SignJWT['sign']>[0];

/** A person the provider issues tokens for: a client of its own, whose tokens carry these claims. */
export interface OidcUser {
  email?: string;
  groups?: string[];
}

/** A real OpenID provider (`oidc-provider`, the certified implementation) on 127.0.0.1. */
export interface OidcStandIn {
  /** The issuer URL (`http://127.0.0.1:<port>`), with discovery at `/.well-known/openid-configuration`. */
  readonly issuer: string;
  /** The audience its access tokens are for. */
  readonly audience: string;
  /** A JWT access token for `user`, from the provider's token endpoint (client credentials). */
  token(user: string): Promise<string>;
  /**
   * A JWT signed with the provider's current key (or `key`), with the claims and header given —
   * for tokens the provider would not issue (expired, another audience, …).
   */
  sign(claims: JWTPayload, options?: { key?: SigningKeyLike; kid?: string; alg?: string }): Promise<string>;
  /**
   * Plays a person at a browser: follows an authorization URL the provider issued, signs in as
   * `user` and consents (the provider's development forms), and returns the URL it finally sends
   * the browser to — the client's redirect URI with `code` and `state`.
   */
  authorizeAs(user: string, authorizationUrl: URL): Promise<URL>;
  /** How many tokens the token endpoint issued, by grant type (`authorization_code`, `refresh_token`, …). */
  readonly grants: Readonly<Record<string, number>>;
  /** How many times its key set (`/jwks`) was fetched. */
  readonly jwksFetches: number;
  /** Starts signing with a new key (the old one stays published); returns the new key id. */
  rotateKeys(): Promise<string>;
  /**
   * Revokes every refresh token issued so far, as an issuer does when a person's session ends or
   * they are signed out: using one then answers `invalid_grant`.
   */
  revokeRefreshTokens(): Promise<void>;
  close(): Promise<void>;
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: SigningKeyLike;
  readonly jwk: JWK;
}

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `key-${crypto.randomUUID().slice(0, 8)}`;
  return { kid, privateKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' } };
}

/**
 * Starts `oidc-provider` on 127.0.0.1 with its own keys, one client per user (the user's name is
 * the client id and the token's `sub`), and JWT access tokens for `audience` carrying each user's
 * `email` and `groups`. It also serves the authorization-code flow with PKCE to clients that
 * register themselves (dynamic client registration), with refresh tokens; {@link OidcStandIn.authorizeAs}
 * plays the person at the browser. Access tokens live `accessTokenTTL` seconds (default 600).
 */
export async function startOidcProvider(options: {
  audience: string;
  users: Record<string, OidcUser>;
  accessTokenTTL?: number;
}): Promise<OidcStandIn> {
  const { default: Provider } = await import('oidc-provider');
  const { audience, users, accessTokenTTL = 600 } = options;
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = (user: string) => `secret-of-${user}-0123456789abcdef`;
  let keys = [await newSigningKey()];
  let handler: (request: IncomingMessage, response: ServerResponse) => void = () => {};
  const grants: Record<string, number> = {};
  const grantsWithRefreshTokens = new Set<string>();
  let provider: InstanceType<typeof Provider>;
  const configure = () => {
    provider = new Provider(issuer, {
      clients: Object.keys(users).map((user) => ({
        client_id: user,
        client_secret: secret(user),
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      jwks: { keys: keys.map((key) => key.jwk) },
      cookies: { keys: ['oidc-stand-in-cookie-key'] },
      findAccount: (_ctx: unknown, id: string) => (users[id] ? { accountId: id, claims: () => ({ sub: id, ...users[id] }) } : undefined),
      issueRefreshToken: () => true,
      scopes: ['openid', 'offline_access', 'api'],
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: true },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => audience,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: 'api',
            audience: resource,
            accessTokenTTL,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256', kid: keys[0]?.kid } },
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) => {
        const { email, groups } = users[token.accountId ?? token.clientId ?? ''] ?? {};
        return { ...(email ? { email } : {}), ...(groups ? { groups } : {}) };
      },
    });
    provider.on('grant.success', (ctx: { oidc: { params?: { grant_type?: string } } }) => {
      const grant = ctx.oidc.params?.grant_type ?? 'unknown';
      grants[grant] = (grants[grant] ?? 0) + 1;
    });
    provider.on('refresh_token.saved', (token) => {
      if (token.grantId) grantsWithRefreshTokens.add(token.grantId);
    });
    handler = provider.callback();
  };
  configure();
  let jwksFetches = 0;
  server.on('request', (request, response) => {
    if (request.url?.startsWith('/jwks')) jwksFetches++;
    handler(request, response);
  });
  return {
    issuer,
    audience,
    get jwksFetches() {
      return jwksFetches;
    },
    grants,
    authorizeAs: (user, authorizationUrl) => authorizeAs(issuer, user, authorizationUrl),
    async token(user) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: user,
          client_secret: secret(user),
          resource: audience,
          scope: 'api',
        }),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      if (!body.access_token)
        throw new Error(`The OpenID provider issued no token for ${user}: ${body.error_description ?? response.status}`);
      return body.access_token;
    },
    async sign(claims, { key, kid, alg = 'RS256' } = {}) {
      const current = keys[0] as SigningKey;
      return new SignJWT(claims).setProtectedHeader({ alg, kid: kid ?? current.kid, typ: 'at+jwt' }).sign(key ?? current.privateKey);
    },
    async rotateKeys() {
      keys = [await newSigningKey(), ...keys];
      configure();
      return (keys[0] as SigningKey).kid;
    },
    async revokeRefreshTokens() {
      for (const grantId of grantsWithRefreshTokens) await provider.RefreshToken.revokeByGrantId(grantId);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A browser's walk through the provider's development sign-in and consent forms, cookies kept:
 * the URL it is last sent to outside the provider (the client's redirect URI).
 */
async function authorizeAs(issuer: string, user: string, authorizationUrl: URL): Promise<URL> {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (!url.href.startsWith(issuer)) return url;
    const response = await fetch(url, {
      redirect: 'manual',
      method: form ? 'POST' : 'GET',
      headers: { cookie: cookieHeader(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form } : {}),
    });
    remember(response);
    form = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    if (!/\/interaction\//.test(url.pathname))
      throw new Error(`The OpenID provider answered ${response.status} at ${url.pathname}: ${page.slice(0, 300)}`);
    form = /name="login"/.test(page)
      ? new URLSearchParams({ prompt: 'login', login: user, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('The OpenID provider never sent the browser back to the client.');
}
