import type { IncomingMessage } from 'node:http';
import { type AuthInfo, CLIENT_INFO_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { Caller } from '@nexus/auth';
import type { CallerIdentity } from '@nexus/registry';

/** Where the verified subject rides in the SDK's `authInfo`. */
const SUBJECT = 'subject';
/** Where the whole verified caller rides, for the server factory (never serialised). */
const CALLER = 'caller';

/**
 * Hands what the HTTP surface verified to the SDK the way its Node handlers read it (`req.auth`,
 * then `ctx.http.authInfo`): a person's JWT as its subject; the static token names nobody.
 */
export function attachVerifiedCaller(request: IncomingMessage & { auth?: AuthInfo }, caller: Caller): void {
  if (caller.kind !== 'user') return;
  const { claims } = caller;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  request.auth = {
    token: request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '',
    clientId: text(claims.azp) ?? text(claims.client_id) ?? '',
    scopes: text(claims.scope)?.split(' ').filter(Boolean) ?? [],
    ...(claims.exp === undefined ? {} : { expiresAt: claims.exp }),
    extra: { [SUBJECT]: caller.subject, [CALLER]: caller },
  };
}

/** The person a request's `authInfo` carries (set by {@link attachVerifiedCaller}); `undefined` for the static token's holder. */
export function verifiedCallerOf(authInfo: AuthInfo | undefined): Caller | undefined {
  const caller = authInfo?.extra?.[CALLER] as Caller | undefined;
  return caller?.kind === 'user' ? caller : undefined;
}

/**
 * Who makes an MCP request: the client by the name it gave (in this request's envelope on
 * 2026-07-28, at `initialize` on 2025-era connections) and the holder of the JWT the HTTP surface verified.
 */
export function mcpCaller(server: Server, ctx: ServerContext): CallerIdentity | undefined {
  const info = (ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] ?? server.getClientVersion()) as { name?: unknown } | undefined;
  const subject = ctx.http?.authInfo?.extra?.[SUBJECT];
  const caller: CallerIdentity = {
    ...(typeof subject === 'string' ? { tokenHolder: subject } : {}),
    ...(typeof info?.name === 'string' ? { mcpClient: info.name } : {}),
  };
  return Object.keys(caller).length > 0 ? caller : undefined;
}
