import { PERMISSION_LEVELS, type PermissionLevel } from '@nexus/core';
import { z } from 'zod';
import { ruleSchema } from './governance-schema.js';

const oneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** An entry of `auth.users`: the claims it matches, and the ceiling, blocked paths, rules and admin right it gives. */
const userEntrySchema = z.strictObject({
  match: z
    .strictObject({ sub: z.string().min(1).optional(), email: z.string().min(1).optional(), groups: oneOrMany.optional() })
    .refine((match) => Object.keys(match).length > 0, 'name at least one of sub, email, groups (an empty match would admit everyone)'),
  preset: z.enum(PERMISSION_LEVELS as [PermissionLevel, ...PermissionLevel[]]).optional(),
  block: z.array(z.string().min(1)).optional(),
  rules: z.array(ruleSchema).optional(),
  admin: z.boolean().optional(),
});

/**
 * `auth` of the user's config file: who may call the HTTP surfaces besides the static token's
 * holder — people an OpenID Connect issuer vouches for (JWT access tokens for `audience`), the
 * scopes their tokens must carry, and (`users`) which of them, with what ceiling.
 */
export const authSchema = z.strictObject({
  issuer: z.url({ protocol: /^https?$/ }),
  audience: z.string().min(1),
  scopes: z.array(z.string().min(1)).optional(),
  clockToleranceSeconds: z.number().min(0).max(600).optional(),
  groupsClaim: z.string().min(1).optional(),
  users: z.array(userEntrySchema).optional(),
  /** The public client (PKCE, redirect URI `<server>/console/`) the console of `nexus serve` signs in as. */
  consoleClientId: z.string().min(1).optional(),
});
