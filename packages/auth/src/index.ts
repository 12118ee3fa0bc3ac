/**
 * `@nexus/auth`: who is calling a Nexus HTTP surface (`nexus serve`, `nexus mcp --http`) — the
 * holder of the static bearer token, or a person an OpenID Connect issuer vouches for.
 */
export type { BearerAuth, BearerAuthOptions, BearerCheck, Caller } from './bearer-auth.js';
export { ALLOWED_TOKEN_ALGORITHMS, bearerChallenge, createBearerAuth, refusalChallenge } from './bearer-auth.js';
export type { OAuthClientOptions } from './oauth-client.js';
export { FileOAuthClient, OAuthLoginError } from './oauth-client.js';
export type { IssuerAuthOptions } from './resource-metadata.js';
export { protectedResourceMetadata, protectedResourceMetadataPath } from './resource-metadata.js';
export type { UserEntry, UserMatch } from './user-access.js';
