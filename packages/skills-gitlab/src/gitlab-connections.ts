import { ConfigError, type ServiceContainer } from '@nexus/core';
import { GitLabClient } from './gitlab-client.js';
import { type GitLabSettings, parseGitLabSettings, type ResolvedGitLabSettings } from './settings.js';
import { UserDirectory } from './user-directory.js';

/** A client for one instance and its user cache. */
export interface Connection {
  client: GitLabClient;
  users: UserDirectory;
}

const cache = new WeakMap<GitLabSettings, GitLabConnections>();

/**
 * The validated `gitlab` settings of an agent and one lazily built {@link Connection} per
 * instance name. Cached per settings object, so all skills of an agent share a client (and its
 * user cache) per instance, and registering new settings starts afresh.
 */
export class GitLabConnections {
  /** Validated settings, defaults filled in. */
  readonly settings: ResolvedGitLabSettings;
  readonly #byName = new Map<string, Connection>();

  private constructor(settings: ResolvedGitLabSettings) {
    this.settings = settings;
  }

  /** The connections for the `gitlab` service registered in `services`. */
  static of(services: ServiceContainer): GitLabConnections {
    const raw = services.get('gitlab');
    if (!raw) throw new ConfigError('No GitLab instance configured: register the `gitlab` service with at least one instance.');
    let connections = cache.get(raw);
    if (!connections) {
      connections = new GitLabConnections(parseGitLabSettings(raw));
      cache.set(raw, connections);
    }
    return connections;
  }

  /** The connection to a configured instance. */
  connect(name: string): Connection {
    let connection = this.#byName.get(name);
    if (!connection) {
      const instance = this.settings.instances[name];
      if (!instance) throw new ConfigError(`GitLab instance '${name}' is not configured.`);
      const client = new GitLabClient(name, instance, this.settings);
      connection = { client, users: new UserDirectory(client) };
      this.#byName.set(name, connection);
    }
    return connection;
  }
}
