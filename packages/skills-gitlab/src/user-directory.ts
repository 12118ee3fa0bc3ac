import type { JsonObject } from '@nexus/core';
import { GitLabApiError } from './gitlab-api-error.js';
import type { GitLabClient } from './gitlab-client.js';

interface User extends JsonObject {
  id: number;
  username: string;
}

function isMe(name: string): boolean {
  return name.trim().toLowerCase() === 'me';
}

/**
 * Turns the user names an LLM writes (`"me"`, `"@alice"`, `"alice"`) into GitLab usernames and
 * ids. `"me"` comes from the instance settings when configured, else from `GET /user`; other
 * names are looked up by exact username. Answers are cached for the client's lifetime.
 */
export class UserDirectory {
  readonly #client: GitLabClient;
  readonly #ids = new Map<string, Promise<number>>();
  #me: Promise<User> | undefined;

  constructor(client: GitLabClient) {
    this.#client = client;
  }

  /** The user the token belongs to (`GET /user`), fetched once. */
  currentUser(signal?: AbortSignal): Promise<User> {
    this.#me ??= this.#client.request<User>({ method: 'GET', path: '/user' }, signal).catch((error: unknown) => {
      this.#me = undefined;
      throw error;
    });
    return this.#me;
  }

  /** The username for a filter: `"me"` → the configured or API username; `@name` → `name`. */
  async usernameOf(name: string, signal?: AbortSignal): Promise<string> {
    if (!isMe(name)) return name.trim().replace(/^@/, '');
    return this.#client.instance.username ?? (await this.currentUser(signal)).username;
  }

  /** The numeric id of a user; unknown names fail with a 404 naming them. */
  async idOf(name: string, signal?: AbortSignal): Promise<number> {
    if (isMe(name)) {
      const { userId, username } = this.#client.instance;
      if (userId !== undefined) return userId;
      if (!username) return (await this.currentUser(signal)).id;
      return this.idOf(username, signal);
    }
    const username = name.trim().replace(/^@/, '');
    let id = this.#ids.get(username.toLowerCase());
    if (!id) {
      id = this.#lookUp(username, signal);
      this.#ids.set(username.toLowerCase(), id);
      id.catch(() => this.#ids.delete(username.toLowerCase()));
    }
    return id;
  }

  /** {@link idOf} for each name, in order; the first unknown name aborts the lot. */
  async idsOf(names: readonly string[], signal?: AbortSignal): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) ids.push(await this.idOf(name, signal));
    return ids;
  }

  async #lookUp(username: string, signal?: AbortSignal): Promise<number> {
    const users = await this.#client.list<User>('/users', { username }, 20, signal);
    const exact = users.find((user) => user.username.toLowerCase() === username.toLowerCase());
    if (!exact) throw new GitLabApiError(`User '${username}' not found on GitLab instance '${this.#client.name}'.`, { status: 404 });
    return exact.id;
  }
}
