/**
 * `@nexus/core/http`: what the HTTP servers (`@nexus/agents`, `@nexus/mcp`) and their clients
 * share — bearer-token checks, capped request bodies, loopback hosts.
 */
export { hasBearerToken, readBody, tokenDigest } from './http-request.js';
export { isLoopbackHost } from './loopback.js';
