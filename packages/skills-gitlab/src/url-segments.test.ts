import { InvalidParametersError } from '@nexus/core';
import { describe, expect, it } from 'vitest';
import { encodeSegment, namespaceSegment, nestedPath, segment } from './url-segments.js';

describe('encodeSegment', () => {
  it('encodes everything but unreserved characters', () => {
    expect(encodeSegment("a/b c!*'()~._-")).toBe('a%2Fb%20c%21%2A%27%28%29~._-');
    expect(encodeSegment(42)).toBe('42');
  });
});

describe('segment', () => {
  it.each(['', '.', '..'])('refuses %j, which a URL parser would treat as a directory step', (value) => {
    expect(() => segment(value, 'name')).toThrow(InvalidParametersError);
  });
  it('encodes names with slashes into one segment', () => {
    expect(segment('feature/../x', 'name')).toBe('feature%2F..%2Fx');
  });
});

describe('nestedPath', () => {
  it('encodes each part and keeps the slashes', () => {
    expect(nestedPath('coverage/index file.html', 'artifact_path')).toBe('coverage/index%20file.html');
  });
  it.each(['../secret', 'a//b', 'a/./b', 'a/'])('refuses %j', (value) => {
    expect(() => nestedPath(value, 'artifact_path')).toThrow(/relative path without empty/);
  });
});

describe('namespaceSegment', () => {
  it('keeps numeric ids and encodes paths', () => {
    expect(namespaceSegment(' 42 ', 'project')).toBe('42');
    expect(namespaceSegment('group/sub/project', 'project')).toBe('group%2Fsub%2Fproject');
  });
  it.each(['../../users', 'group/..', './x', 'group//x', '..'])('refuses %j', (value) => {
    expect(() => namespaceSegment(value, 'project')).toThrow(/path like "group\/name" or a numeric id/);
  });
  it.each(['https://evil.example/group/project', 'http://127.0.0.1:1/x', 'git@evil.example:group/project.git', 'ssh://git@evil.example/x'])(
    'refuses the URL %j',
    (value) => {
      expect(() => namespaceSegment(value, 'project')).toThrow(/got a URL; choose the server with `instance`/);
    },
  );
});
