import { type Rpc, RpcError } from './rpc.js';

/**
 * The pages only the token holder and the server's admins may use: their methods (`list_tools`,
 * `run_tool`, `list_skill_packages`) refuse anyone else (`checkAdmin` in `@nexus/agents`).
 */
export const ADMIN_PAGES: ReadonlySet<string> = new Set(['tools', 'skills']);

/** JSON-RPC's "invalid params": how the server refuses a person who is not an admin. */
const REFUSED = -32602;
/** Waits between asking again after a failure that was not an answer (ms); then the pages stay hidden. */
const RETRY_DELAYS = [500, 1_000, 2_000, 4_000, 8_000];

/**
 * Whether the server lets this caller use {@link ADMIN_PAGES}: asked with `list_tools`, whose only
 * refusal of valid params is that check — so a person who is not an admin is never shown those
 * pages, rather than shown a refusal on them. A failure that is no answer (the network, the server
 * busy) is asked again a few times before the pages are left out: it says nothing about the caller.
 */
export async function mayUseAdminPages(rpc: Rpc): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rpc.call('list_tools');
      return true;
    } catch (failure) {
      const refused = failure instanceof RpcError && (failure.code === REFUSED || failure.status === 401 || failure.status === 403);
      const delay = RETRY_DELAYS[attempt];
      if (refused || delay === undefined) return false;
      await new Promise((retry) => setTimeout(retry, delay));
    }
  }
}
