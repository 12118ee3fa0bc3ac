import type { Requester } from '@nexus/agents';
import { checkOwner, memberSpecOf, ownerReached, type PoolMember, refuse, type SessionHeader } from '@nexus/agents/kit';
import { queryRows, type RestateUrls, sqlText } from './restate-client.js';

/*
 * The local runtime's owner rule (checkOwner, ownerReached in @nexus/agents/kit) on the Restate
 * runtime, where an agent's owner is kept in its stored header: set at create, never changed
 * (docs/design-decisions.md, issue 28).
 */

/** Reads an agent's stored header (`null`: no such agent). */
export type HeaderReader = (agentId: string) => Promise<SessionHeader | null>;

/** The requesting agent's grant (where its owner is), from its stored header; `undefined` for the token holder and a person. */
async function requestingGrant(requester: Requester, headerOf: HeaderReader): Promise<Pick<PoolMember, 'grant'> | undefined> {
  if (requester.kind !== 'agent') return undefined;
  const header = await headerOf(requester.id);
  if (!header) throw refuse(`The requesting agent "${requester.id}" no longer exists.`);
  return { grant: memberSpecOf({ ...header, messages: [] }).grant };
}

/** Whose agents `requester` reaches: a person who is not an admin only their own, an agent only its owner's; `undefined`: every agent. */
export async function ownerReachedStored(requester: Requester, headerOf: HeaderReader): Promise<string | undefined> {
  return ownerReached(requester, await requestingGrant(requester, headerOf));
}

/**
 * Refuses another person's agent (`-32602`, as the local runtime does); reads no header for the
 * token holder and admins. An agent not stored is left to the method, which says so.
 */
export async function checkOwnerStored(requester: Requester, agentId: string, headerOf: HeaderReader): Promise<void> {
  const requesting = await requestingGrant(requester, headerOf);
  if (ownerReached(requester, requesting) === undefined) return;
  const header = await headerOf(agentId);
  if (header) checkOwner(requester, requesting, { id: agentId, owner: header.owner });
}

/** Every stored agent's id and owner (`undefined`: the token holder's), by id, from the headers in Restate's state (one query). */
export async function storedOwners(urls: RestateUrls, service: string): Promise<Array<{ id: string; owner: string | undefined }>> {
  const rows = await queryRows<{ service_key: string; value_utf8: string }>(
    urls,
    `SELECT service_key, value_utf8 FROM state WHERE service_name = ${sqlText(service)} AND key = 'header' ORDER BY service_key`,
  );
  return rows.map((row) => ({ id: row.service_key, owner: (JSON.parse(row.value_utf8) as SessionHeader).owner }));
}
