import type { GitLabClient } from './gitlab-client.js';

/** A GitLab version as `[major, minor]`. */
export type Version = readonly [number, number];

const versions = new WeakMap<GitLabClient, Promise<Version>>();

/** `"17.7.1-ee"` → `[17, 7]`; anything unreadable → `[0, 0]`. */
function parseVersion(text: unknown): Version {
  const match = typeof text === 'string' ? /^(\d+)\.(\d+)/.exec(text) : null;
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/** The instance's version (`GET /version`), asked once per client; a failed look-up is asked again next time. */
export function instanceVersion(client: GitLabClient, signal?: AbortSignal): Promise<Version> {
  let version = versions.get(client);
  if (!version) {
    version = client
      .request<{ version?: string }>({ method: 'GET', path: '/version' }, signal)
      .then((answer) => parseVersion(answer?.version));
    versions.set(client, version);
    version.catch(() => versions.delete(client));
  }
  return version;
}

/** Whether `version` is `[major, minor]` or later. */
export function atLeast(version: Version, major: number, minor: number): boolean {
  return version[0] > major || (version[0] === major && version[1] >= minor);
}
