// The help section on `auth`: the people of an OpenID issuer on nexus mcp --http and nexus serve (`nexus help config`).

/** `auth` in the user's config file, every key. */
export const AUTH = `People of an OpenID Connect issuer (your own file only)
  "auth": {
    "issuer": "https://idp.example.com/realms/acme",
    "audience": "https://nexus.example.com",
    "scopes": ["nexus"],
    "groupsClaim": "groups",
    "clockToleranceSeconds": 60,
    "consoleClientId": "nexus-console",
    "users": [
      { "match": { "groups": "platform" }, "preset": "trusted", "admin": true },
      { "match": { "email": "*@example.com" }, "preset": "sandboxed",
        "block": ["~/secrets"], "rules": [{ "tool": "bash_safe", "decision": "deny" }] },
      { "match": { "sub": "f3c1…" } }
    ]
  }
  nexus mcp --http and nexus serve then accept the issuer's JWT access tokens
  beside the static token: signed by a key of the issuer (its discovery document
  and JWKS; asymmetric algorithms only), "iss" the issuer, "aud" naming the
  audience (the URL clients use for this server), "exp"/"nbf" within
  clockToleranceSeconds (default 60), a "sub". Both serve their protected resource
  metadata at /.well-known/oauth-protected-resource, so MCP clients find the
  issuer; a missing or refused token is 401 (WWW-Authenticate: Bearer
  resource_metadata=…, error="invalid_token").
  scopes: published for clients to ask for, and every token must carry them
  (403 insufficient_scope otherwise).
  users: the first entry whose match holds admits the person — "sub" exactly,
  "email" with * globs (letter case ignored), "groups" one name or a list (any of
  them) read from the groupsClaim claim (default "groups"; Auth0 and others use a
  namespaced claim). "preset" is their ceiling (never above the server's),
  "block" paths are blocked for them too, their "rules" come before yours, and
  "admin" reaches every person's agents. A valid token no entry admits is 403,
  saying why. Without "users" every valid token gets the server's own preset.
  On nexus serve an agent belongs to whoever created it: another person cannot
  list, read, send to, approve for or destroy it; admins and the static token's
  holder can. Audit records name the person by their "sub".
  consoleClientId: the console of nexus serve offers "Sign in with <issuer>":
  authorization code + PKCE in the page as this public client (register it at the
  issuer with the redirect URI http://127.0.0.1:<port>/console/ and the page's
  origin allowed for CORS); the token stays in the page's memory.`;
