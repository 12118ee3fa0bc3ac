import { createBearerAuth, type IssuerAuthOptions, protectedResourceMetadataPath, refusalChallenge } from '@nexus/auth';
import type { ToolRule } from '@nexus/core';

import { type Requester, TOKEN_HOLDER } from './requester-policy.js';

/** Who a request to the agent server comes from, or the refusal to answer with (its status, message and `WWW-Authenticate`). */
export type ServerAuthCheck =
  | { readonly ok: true; readonly requester: Requester }
  | { readonly ok: false; readonly status: number; readonly message: string; readonly challenge?: string };

/**
 * The agent server's bearer check: the static token, and with `auth` the issuer's JWTs, through
 * `@nexus/auth` (one place for the token rule). Without `auth` a wrong token is 403, as the
 * agent server's spec has it; with it, RFC 6750's 401 `invalid_token` pointing to the protected
 * resource metadata, as an OAuth client expects.
 */
export function agentServerAuth(token: string, auth: IssuerAuthOptions | undefined) {
  const bearer = createBearerAuth({ token, ...auth });
  return async (authorization: string | undefined, origin: string): Promise<ServerAuthCheck> => {
    const checked = await bearer.check(authorization);
    if (checked.ok) {
      const { caller } = checked;
      if (caller.kind === 'token-holder') return { ok: true, requester: TOKEN_HOLDER };
      const { preset, block, rules, admin = false } = caller.entry ?? {};
      const requester: Requester = {
        kind: 'user',
        subject: caller.subject,
        admin,
        ...(preset ? { ceiling: preset } : {}),
        ...(block ? { blockedPaths: block } : {}),
        ...(rules?.length ? { rules: rules as ToolRule[] } : {}),
      };
      return { ok: true, requester };
    }
    if (!auth)
      return authorization === undefined
        ? { ok: false, status: 401, message: 'Missing `Authorization: Bearer <token>`.' }
        : { ok: false, status: 403, message: 'Wrong bearer token.' };
    const challenge = refusalChallenge(checked, {
      tokenSent: authorization !== undefined,
      resourceMetadata: `${origin}${protectedResourceMetadataPath()}`,
      scopes: auth.scopes,
    });
    const message = `${checked.status === 403 ? 'Forbidden' : 'Unauthorized'}: ${checked.reason}.`;
    return { ok: false, status: checked.status, message, ...(challenge ? { challenge } : {}) };
  };
}
