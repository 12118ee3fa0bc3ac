import { link, symlink } from 'node:fs/promises';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authorizePath, PathSecurityError, resolvePreset, ServiceContainer } from './index.js';

let dir: TestDir;
let services: ServiceContainer;
const folder = () => dir.join('skills', 'pkg');

beforeEach(async () => {
  dir = await testdir({
    work: { 'notes.txt': 'n' },
    skills: {
      pkg: { 'SKILL.md': 's', references: { 'guide.md': 'g' }, '.env': 'secret' },
      'pkg-evil': { 'x.md': 'x' },
      other: { 'y.md': 'y' },
    },
    outside: { 'secret.txt': 'secret' },
  });
  services = new ServiceContainer().register(
    'permissions',
    resolvePreset('sandboxed', {
      cwd: dir.join('work'),
      blockedPaths: [dir.join('skills', 'pkg', '.env')],
      tools: { narrow_tool: { allowedPaths: [dir.join('work')] } },
    }),
  );
});
afterEach(() => dir.cleanup());

const refused = (promise: Promise<unknown>) => expect(promise).rejects.toSatisfy((error: unknown) => PathSecurityError.isInstance(error));

describe('read-only paths (a skill package folder the agent took)', () => {
  it('are readable at sandboxed once added, and only then', async () => {
    const guide = dir.join('skills', 'pkg', 'references', 'guide.md');
    await refused(authorizePath(services, 'read_file', guide));
    services.addReadOnlyPath(folder());
    await expect(authorizePath(services, 'read_file', guide)).resolves.toBe(guide);
    expect(services.getToolAllowedPaths('read_file')).toEqual([dir.join('work'), folder()]);
    services.addReadOnlyPath(folder());
    expect(services.getToolAllowedPaths('read_file')).toEqual([dir.join('work'), folder()]);
  });

  it('are never writable, and widen nothing else', async () => {
    services.addReadOnlyPath(folder());
    await refused(authorizePath(services, 'write_file', dir.join('skills', 'pkg', 'references', 'guide.md'), { access: 'write' }));
    await refused(authorizePath(services, 'write_file', dir.join('skills', 'pkg', 'new.md'), { access: 'write' }));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'pkg-evil', 'x.md')));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'other', 'y.md')));
    await refused(authorizePath(services, 'read_file', `${folder()}/../other/y.md`));
    await refused(authorizePath(services, 'list_directory', dir.join('skills')));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'pkg', '.env')));
    await refused(authorizePath(services, 'narrow_tool', dir.join('skills', 'pkg', 'SKILL.md')));
  });

  it('refuse links out of the folder: to a file, to a directory, and a hard link stays what it is', async () => {
    services.addReadOnlyPath(folder());
    await symlink(dir.join('outside', 'secret.txt'), dir.join('skills', 'pkg', 'references', 'link.md'));
    await symlink(dir.join('outside'), dir.join('skills', 'pkg', 'assets'));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'pkg', 'references', 'link.md')));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'pkg', 'assets', 'secret.txt')));
    await link(dir.join('outside', 'secret.txt'), dir.join('skills', 'pkg', 'hard.md'));
    await refused(authorizePath(services, 'read_file', dir.join('skills', 'pkg', 'hard.md')));
  });

  it('refuse a relative path', () => {
    expect(() => services.addReadOnlyPath('skills/pkg')).toThrow('Expected `path` to be an absolute path, got "skills/pkg".');
  });
});
