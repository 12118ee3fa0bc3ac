import { ConfigError } from '@nexus/core';
import { hasBearerToken, tokenDigest } from '@nexus/core/http';
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { describeClaims, findUserEntry, grantedScopes, type UserEntry } from './user-access.js';

/** Signature algorithms a token may use: asymmetric ones only (never `none`, never an HMAC a public key could forge). */
export const ALLOWED_TOKEN_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** How an HTTP surface tells who is calling (`nexus serve`, `nexus mcp --http`). */
export interface BearerAuthOptions {
  /** The static bearer token of one-person use (kept as a digest, compared in constant time). */
  token?: string;
  /** An OpenID Connect issuer: bearer JWTs are verified against its discovery document and keys. */
  issuer?: string;
  /** The audience tokens must name (this server); required with `issuer`. */
  audience?: string;
  /** Clock skew allowed on `exp` and `nbf`, in seconds (default 60). */
  clockToleranceSeconds?: number;
  /** After fetching the issuer's keys, how long a token with an unknown `kid` waits before they are fetched again, in seconds (default 30). */
  keyRefetchCooldownSeconds?: number;
  /** Scopes every issuer's token must carry (its `scope` claim); one missing is 403 `insufficient_scope`. */
  scopes?: readonly string[];
  /** Who among the issuer's people may call, and with what ceiling: the first entry that matches a token applies; none → 403. Without it, every valid token is admitted. */
  users?: readonly UserEntry[];
  /** The claim listing a person's groups (default `groups`; Auth0 and others put it under a namespaced name). */
  groupsClaim?: string;
}

/** Who a request comes from: the holder of the static token, or a person the issuer vouches for. */
export type Caller =
  | { readonly kind: 'token-holder' }
  | {
      readonly kind: 'user';
      readonly subject: string;
      readonly claims: Readonly<JWTPayload>;
      /** The entry of `users` that admitted this person (`undefined` when no `users` are configured). */
      readonly entry?: UserEntry;
    };

/**
 * The outcome of checking a request's bearer token: the caller, or why there is none — 401 (no
 * valid token), 403 (a valid token this server does not admit: `insufficient_scope`, or no entry
 * of `users` matches), or 503 when the issuer cannot be reached.
 */
export type BearerCheck =
  | { readonly ok: true; readonly caller: Caller }
  | {
      readonly ok: false;
      readonly status: 401 | 403 | 503;
      readonly reason: string;
      /** `insufficient_scope` when the token lacks a scope (RFC 6750 §3.1). */
      readonly error?: 'insufficient_scope';
    };

/** Checks `Authorization` headers; see {@link createBearerAuth}. */
export interface BearerAuth {
  check(authorization: string | undefined): Promise<BearerCheck>;
}

/** Why jose refused a token, in words a caller can act on (never the token itself). */
function refusalReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's "${error.claim}" claim is not accepted (${error.reason})`;
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "the token's signature algorithm is not allowed";
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the issuer matches the token';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  return 'the token is not a valid JWT of the issuer';
}

/**
 * Checks bearer tokens: the static `token` (the token holder), and — with `issuer` — JWTs the
 * issuer signed: signature against the keys its discovery document names (fetched once, cached,
 * fetched again for an unknown `kid` at most once per 30 s), `iss`, `aud`, `exp` and `nbf` (with
 * the clock tolerance), `sub` present, and an asymmetric algorithm only. Built on `jose`; throws a
 * `ConfigError` for options that name no way to check anything.
 */
export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  const {
    token,
    issuer,
    audience,
    clockToleranceSeconds = 60,
    keyRefetchCooldownSeconds = 30,
    scopes = [],
    users,
    groupsClaim = 'groups',
  } = options;
  if (token === undefined && issuer === undefined) throw new ConfigError('Bearer authentication needs a token, an issuer, or both.');
  if (issuer !== undefined && !audience)
    throw new ConfigError(`The issuer ${issuer} needs an audience (auth.audience): the URL clients use for this server.`);
  const digest = token === undefined ? undefined : tokenDigest(token);
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const issuerKeys = (from: string) => {
    keys ??= discoverKeys(from, keyRefetchCooldownSeconds * 1000).catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  return {
    async check(authorization) {
      if (authorization === undefined) return { ok: false, status: 401, reason: 'no bearer token' };
      if (digest && hasBearerToken(authorization, digest)) return { ok: true, caller: { kind: 'token-holder' } };
      const jwt = /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1];
      if (issuer === undefined || jwt === undefined || jwt.split('.').length !== 3)
        return { ok: false, status: 401, reason: 'the token is not accepted' };
      let keySet: Awaited<ReturnType<typeof issuerKeys>>;
      try {
        keySet = await issuerKeys(issuer);
      } catch (error) {
        return { ok: false, status: 503, reason: `the issuer ${issuer} cannot be reached: ${(error as Error).message}` };
      }
      try {
        const { payload } = await jwtVerify(jwt, keySet, {
          issuer,
          audience,
          algorithms: [...ALLOWED_TOKEN_ALGORITHMS],
          clockTolerance: clockToleranceSeconds,
          requiredClaims: ['sub', 'exp'],
        });
        const missing = scopes.filter((scope) => !grantedScopes(payload).includes(scope));
        if (missing.length > 0)
          return { ok: false, status: 403, error: 'insufficient_scope', reason: `the token lacks the scope ${missing.join(' ')}` };
        const entry = users && findUserEntry(users, payload, groupsClaim);
        if (users && !entry)
          return { ok: false, status: 403, reason: `no entry of auth.users admits this token (${describeClaims(payload, groupsClaim)})` };
        return { ok: true, caller: { kind: 'user', subject: payload.sub as string, claims: payload, ...(entry ? { entry } : {}) } };
      } catch (error) {
        return { ok: false, status: 401, reason: refusalReason(error) };
      }
    },
  };
}

/** The issuer's key set, from the `jwks_uri` of its discovery document (whose `issuer` must be the one configured). */
async function discoverKeys(issuer: string, cooldownDuration: number): Promise<ReturnType<typeof createRemoteJWKSet>> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (metadata.issuer !== issuer) throw new Error(`${url} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
  if (typeof metadata.jwks_uri !== 'string') throw new Error(`${url} names no jwks_uri`);
  return createRemoteJWKSet(new URL(metadata.jwks_uri), { cooldownDuration });
}

/**
 * A `WWW-Authenticate` value for a refused request (RFC 6750, and RFC 9728's `resource_metadata`
 * that MCP clients follow to find the issuer).
 */
export function bearerChallenge(
  options: { error?: 'invalid_token' | 'insufficient_scope'; description?: string; resourceMetadata?: string; scope?: string } = {},
): string {
  const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;
  const parts = [
    ...(options.resourceMetadata ? [`resource_metadata=${quoted(options.resourceMetadata)}`] : []),
    ...(options.error ? [`error=${quoted(options.error)}`] : []),
    ...(options.scope ? [`scope=${quoted(options.scope)}`] : []),
    ...(options.description ? [`error_description=${quoted(options.description)}`] : []),
  ];
  return parts.length === 0 ? 'Bearer realm="nexus"' : `Bearer ${parts.join(', ')}`;
}

/**
 * The `WWW-Authenticate` answering a refused {@link BearerCheck}: on 401 a challenge naming the
 * metadata (`invalid_token` and the reason when a token was sent), on 403 `insufficient_scope`
 * with the scopes wanted; `undefined` when none is due (503, a 403 of `users`).
 */
export function refusalChallenge(
  refusal: Extract<BearerCheck, { ok: false }>,
  options: { tokenSent: boolean; resourceMetadata?: string | undefined; scopes?: readonly string[] | undefined },
): string | undefined {
  const resourceMetadata = options.resourceMetadata ? { resourceMetadata: options.resourceMetadata } : {};
  if (refusal.status === 401)
    return bearerChallenge({
      ...resourceMetadata,
      ...(options.tokenSent ? { error: 'invalid_token' as const, description: refusal.reason } : {}),
    });
  if (refusal.error === 'insufficient_scope')
    return bearerChallenge({ ...resourceMetadata, error: refusal.error, scope: options.scopes?.join(' ') ?? '' });
  return undefined;
}
