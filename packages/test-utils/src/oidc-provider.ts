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
  /** How many times its key set (`/jwks`) was fetched. */
  readonly jwksFetches: number;
  /** Starts signing with a new key (the old one stays published); returns the new key id. */
  rotateKeys(): Promise<string>;
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
 * `email` and `groups`.
 */
export async function startOidcProvider(options: { audience: string; users: Record<string, OidcUser> }): Promise<OidcStandIn> {
  const { default: Provider } = await import('oidc-provider');
  const { audience, users } = options;
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const secret = (user: string) => `secret-of-${user}-0123456789abcdef`;
  let keys = [await newSigningKey()];
  let handler: (request: IncomingMessage, response: ServerResponse) => void = () => {};
  const configure = () => {
    const provider = new Provider(issuer, {
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
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => audience,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: 'api',
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256', kid: keys[0]?.kid } },
          }),
        },
      },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) => {
        const { email, groups } = users[token.clientId ?? ''] ?? {};
        return { ...(email ? { email } : {}), ...(groups ? { groups } : {}) };
      },
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
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
