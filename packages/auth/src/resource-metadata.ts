import type { BearerAuthOptions } from './bearer-auth.js';

/** The user config's `auth`: an OpenID Connect issuer whose people may call a Nexus HTTP surface beside the static token's holder. */
export type IssuerAuthOptions = Omit<BearerAuthOptions, 'token' | 'issuer' | 'audience'> & {
  issuer: string;
  /** The URL clients use for this server; tokens must name it as their audience. */
  audience: string;
};

/** The well-known path of a resource's protected resource metadata (RFC 9728 §3.1: the resource's path appended). */
export function protectedResourceMetadataPath(resourcePath = ''): string {
  return `/.well-known/oauth-protected-resource${resourcePath === '/' ? '' : resourcePath}`;
}

/**
 * The protected resource metadata (RFC 9728) of a server whose tokens `auth` verifies: the
 * audience as the resource, the issuer as its authorization server, the scopes clients should ask for.
 */
export function protectedResourceMetadata(auth: IssuerAuthOptions): Record<string, unknown> {
  return {
    resource: auth.audience,
    authorization_servers: [auth.issuer],
    ...(auth.scopes?.length ? { scopes_supported: auth.scopes } : {}),
    bearer_methods_supported: ['header'],
  };
}
