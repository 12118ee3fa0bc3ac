import { describe, expect, it } from 'vitest';
import type { ConfirmationRequest } from './index.js';
import { confirmationCovers, confirmOncePerCall } from './index.js';

function asking(answer: boolean) {
  const asked: ConfirmationRequest[] = [];
  return { asked, confirm: confirmOncePerCall((request) => (asked.push(request), answer)) };
}

describe('confirmOncePerCall', () => {
  it('asks once for a request made again, and not for a path inside an approved one', async () => {
    const { asked, confirm } = asking(true);
    const write = (path: string) => ({ tool: 'git', action: `write outside the working directory: ${path}`, path });

    expect(await confirm(write('/srv/repo'))).toBe(true);
    expect(await confirm(write('/srv/repo/.git'))).toBe(true);
    expect(await confirm(write('/srv/repo'))).toBe(true);
    expect(await confirm({ tool: 'git', action: 'push to origin' })).toBe(true);
    expect(await confirm({ tool: 'git', action: 'push to origin' })).toBe(true);

    expect(asked.map((request) => request.action)).toEqual(['write outside the working directory: /srv/repo', 'push to origin']);
  });

  it('asks again for a sibling path, another tool, other detail, and after a refusal', async () => {
    const { asked, confirm } = asking(true);
    await confirm({ tool: 'git', action: 'write /srv/repo', path: '/srv/repo' });
    await confirm({ tool: 'git', action: 'write /srv/repository', path: '/srv/repository' });
    await confirm({ tool: 'write_file', action: 'write /srv/repo/a', path: '/srv/repo/a' });
    await confirm({ tool: 'bash', action: 'run make', detail: 'working directory: /a' });
    await confirm({ tool: 'bash', action: 'run make', detail: 'working directory: /b' });
    expect(asked).toHaveLength(5);

    const refusing = asking(false);
    expect(await refusing.confirm({ tool: 'git', action: 'push' })).toBe(false);
    expect(await refusing.confirm({ tool: 'git', action: 'push' })).toBe(false);
    expect(refusing.asked).toHaveLength(2);
  });
});

describe('confirmationCovers', () => {
  const write = (path: string) => ({ tool: 'write_file', action: `write ${path}`, path });
  it('covers the same tool at a path inside the approved one, or the same action and detail', () => {
    expect(confirmationCovers(write('/srv/out'), write('/srv/out/a.txt'))).toBe(true);
    expect(confirmationCovers(write('/srv/out'), write('/srv/outside'))).toBe(false);
    expect(confirmationCovers(write('/srv/out'), { ...write('/srv/out'), tool: 'edit_file' })).toBe(false);
    const run = { tool: 'bash_safe', action: 'run rm -r build' };
    expect(confirmationCovers(run, { ...run })).toBe(true);
    expect(confirmationCovers(run, { ...run, action: 'run rm -r /' })).toBe(false);
    expect(confirmationCovers({ ...run, detail: 'a' }, { ...run, detail: 'b' })).toBe(false);
  });
});
