import type { PermissionLevel } from '@nexus/core';
import type { JWTPayload } from 'jose';
import picomatch from 'picomatch';

/** Which tokens an entry of `auth.users` admits: every claim named must match. */
export interface UserMatch {
  /** The token's subject, exactly. */
  sub?: string;
  /** The token's `email`, where `*` stands for any characters (`*@example.com`); letter case is ignored. */
  email?: string;
  /** A group (or any of several) the token's groups claim lists. */
  groups?: string | readonly string[];
}

/** An entry of `auth.users`: whom it admits, and what they may do. */
export interface UserEntry {
  match: UserMatch;
  /** The most this person may do (default: the server's own preset); never more than the server's. */
  preset?: PermissionLevel;
  /** Paths blocked for this person on top of the server's. */
  block?: readonly string[];
  /** Governance rules applied to this person's calls before the server's (their shape is the app's `rules`). */
  rules?: readonly unknown[];
  /** Reaches every person's agents, as the static token's holder does. */
  admin?: boolean;
}

/** The values of a claim holding one name or a list of names. */
function claimValues(claims: Readonly<JWTPayload>, name: string): string[] {
  const value = claims[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether a token's claims satisfy every claim `match` names (an empty match admits everyone). */
function matches(match: UserMatch, claims: Readonly<JWTPayload>, groupsClaim: string): boolean {
  if (match.sub !== undefined && claims.sub !== match.sub) return false;
  if (match.email !== undefined) {
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    if (email === undefined || !picomatch.isMatch(email, match.email, { nocase: true, bash: true, dot: true })) return false;
  }
  if (match.groups !== undefined) {
    const wanted = typeof match.groups === 'string' ? [match.groups] : match.groups;
    const held = claimValues(claims, groupsClaim);
    if (!wanted.some((group) => held.includes(group))) return false;
  }
  return true;
}

/** Who a token says its holder is, for a refusal (claims a person may read about themselves). */
export function describeClaims(claims: Readonly<JWTPayload>, groupsClaim: string): string {
  const groups = claimValues(claims, groupsClaim);
  const parts = [
    `sub "${String(claims.sub)}"`,
    ...(typeof claims.email === 'string' ? [`email "${claims.email}"`] : []),
    groups.length > 0 ? `${groupsClaim} ${JSON.stringify(groups)}` : `no "${groupsClaim}" claim`,
  ];
  return parts.join(', ');
}

/** The first entry of `users` whose `match` the claims satisfy, or `undefined`. */
export function findUserEntry(users: readonly UserEntry[], claims: Readonly<JWTPayload>, groupsClaim: string): UserEntry | undefined {
  return users.find((entry) => matches(entry.match, claims, groupsClaim));
}

/** The scopes a token was granted: its `scope` claim (space-separated, RFC 9068) or a `scp` list. */
export function grantedScopes(claims: Readonly<JWTPayload>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  return claimValues(claims, 'scp');
}
