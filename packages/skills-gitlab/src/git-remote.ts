/** Where a git remote points: host and port, and the project path on it. */
export interface GitRemote {
  /** Lower-cased host name, without user info or port. */
  hostname: string;
  /** Port written in the remote URL, if any. */
  port?: number;
  /** `ssh` for scp-style and `ssh://` remotes, else the URL scheme without `:` (`https`, `http`, `git`). */
  scheme: string;
  /** Project path with nested groups, without leading or trailing `/` and without `.git`. */
  path: string;
}

const SCP_FORM = /^(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s]+):(?!\/\/)(.+)$/;

function cleanPath(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

/**
 * Parses a remote URL — `git@host:group/sub/project.git`, `user@host:path`,
 * `ssh://git@host:2222/group/project.git`, `https://[user[:token]@]host[:port]/group/project` —
 * into host and project path. Credentials are dropped, never kept. `undefined` when it is not
 * a remote on a host (a local path, an empty string).
 */
export function parseRemoteUrl(remote: string): GitRemote | undefined {
  const text = remote.trim();
  if (!text) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    const scheme = url.protocol.slice(0, -1).toLowerCase();
    if (scheme === 'file' || !url.hostname) return undefined;
    const path = cleanPath(decodeURIComponent(url.pathname));
    if (!path) return undefined;
    return {
      hostname: url.hostname.toLowerCase().replace(/^\[|\]$/g, ''),
      ...(url.port ? { port: Number(url.port) } : {}),
      scheme: scheme === 'git+ssh' || scheme === 'ssh+git' ? 'ssh' : scheme,
      path,
    };
  }
  const scp = SCP_FORM.exec(text);
  if (!scp?.[1] || !scp[2]) return undefined;
  const path = cleanPath(scp[2]);
  return path ? { hostname: scp[1].replace(/^\[|\]$/g, '').toLowerCase(), scheme: 'ssh', path } : undefined;
}

const DEFAULT_PORTS: Record<string, number> = { https: 443, http: 80 };

/**
 * Whether `remote` is on the GitLab instance at `instanceUrl`. Web remotes must match host name
 * and port (default ports filled in); SSH remotes match on the host name alone, because their port
 * is the SSH daemon's, not the web server's.
 */
export function remoteMatchesInstance(remote: GitRemote, instanceUrl: string): boolean {
  const url = new URL(instanceUrl);
  if (url.hostname.toLowerCase().replace(/^\[|\]$/g, '') !== remote.hostname) return false;
  if (remote.scheme !== 'http' && remote.scheme !== 'https') return true;
  const instancePort = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol.slice(0, -1)];
  const remotePort = remote.port ?? DEFAULT_PORTS[remote.scheme];
  return instancePort === remotePort;
}

/** The project path of `remote` on the instance, with the instance's own path prefix removed. */
export function projectPathOnInstance(remote: GitRemote, instanceUrl: string): string {
  const prefix = cleanPath(new URL(instanceUrl).pathname);
  if (prefix && remote.path.startsWith(`${prefix}/`)) return remote.path.slice(prefix.length + 1);
  return remote.path;
}
