import { describe, expect, it } from 'vitest';
import { parseRemoteUrl, projectPathOnInstance, remoteMatchesInstance } from './git-remote.js';

describe('parseRemoteUrl', () => {
  it.each([
    ['git@gitlab.com:org/sub/project.git', { hostname: 'gitlab.com', scheme: 'ssh', path: 'org/sub/project' }],
    ['gitlab@Gitlab.Example.com:group/project', { hostname: 'gitlab.example.com', scheme: 'ssh', path: 'group/project' }],
    ['gitlab.example.com:group/project.git/', { hostname: 'gitlab.example.com', scheme: 'ssh', path: 'group/project' }],
    [
      'ssh://git@gitlab.local:2222/group/sub/project.git',
      { hostname: 'gitlab.local', port: 2222, scheme: 'ssh', path: 'group/sub/project' },
    ],
    ['https://gitlab.com/org/sub/project.git', { hostname: 'gitlab.com', scheme: 'https', path: 'org/sub/project' }],
    [
      'https://oauth2:glpat-secret@gitlab.local:8443/group/project.git',
      { hostname: 'gitlab.local', port: 8443, scheme: 'https', path: 'group/project' },
    ],
    ['http://[::1]:8080/group/project', { hostname: '::1', port: 8080, scheme: 'http', path: 'group/project' }],
  ])('%s', (remote, expected) => {
    expect(parseRemoteUrl(`${remote}\n`)).toEqual(expected);
  });

  it('never keeps credentials', () => {
    expect(JSON.stringify(parseRemoteUrl('https://user:glpat-secret@gitlab.com/g/p.git'))).not.toContain('glpat-secret');
  });

  it.each(['', '/srv/git/project.git', '../project', 'file:///srv/git/project.git', 'https://gitlab.com/'])(
    'is undefined for %j',
    (remote) => {
      expect(parseRemoteUrl(remote)).toBeUndefined();
    },
  );
});

describe('remoteMatchesInstance', () => {
  it('matches web remotes on host and port, with default ports filled in', () => {
    expect(remoteMatchesInstance(parseRemoteUrl('https://gitlab.local:8443/g/p')!, 'https://GitLab.local:8443')).toBe(true);
    expect(remoteMatchesInstance(parseRemoteUrl('https://gitlab.local/g/p')!, 'https://gitlab.local:443')).toBe(true);
    expect(remoteMatchesInstance(parseRemoteUrl('https://gitlab.local:9443/g/p')!, 'https://gitlab.local:8443')).toBe(false);
    expect(remoteMatchesInstance(parseRemoteUrl('https://github.com/g/p')!, 'https://gitlab.com')).toBe(false);
  });

  it('matches SSH remotes on the host name alone (their port is the SSH daemon’s)', () => {
    expect(remoteMatchesInstance(parseRemoteUrl('ssh://git@gitlab.local:2222/g/p.git')!, 'https://gitlab.local:8443')).toBe(true);
    expect(remoteMatchesInstance(parseRemoteUrl('git@gitlab.local:g/p.git')!, 'https://gitlab.local')).toBe(true);
  });
});

describe('projectPathOnInstance', () => {
  it('drops the instance path prefix', () => {
    expect(projectPathOnInstance(parseRemoteUrl('https://example.com/gitlab/group/project.git')!, 'https://example.com/gitlab')).toBe(
      'group/project',
    );
    expect(projectPathOnInstance(parseRemoteUrl('git@example.com:group/project.git')!, 'https://example.com/gitlab')).toBe('group/project');
  });
});
