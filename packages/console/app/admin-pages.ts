import type { Rpc } from './rpc.js';

/**
 * The pages only the token holder and the server's admins may use: their methods (`list_tools`,
 * `run_tool`, `list_skill_packages`) refuse anyone else (`checkAdmin` in `@nexus/agents`).
 */
export const ADMIN_PAGES: ReadonlySet<string> = new Set(['tools', 'skills']);

/**
 * Whether the server lets this caller use {@link ADMIN_PAGES}: asked once, with `list_tools`,
 * whose only refusal of valid params is that check — so a person who is not an admin is never
 * shown those pages, rather than shown a refusal on them.
 */
export function mayUseAdminPages(rpc: Rpc): Promise<boolean> {
  return rpc.call('list_tools').then(
    () => true,
    () => false,
  );
}
