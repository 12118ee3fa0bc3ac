import { type TestDir, type Tree, testdir } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { serveInProcess } from './testing/serve-in-process.js';

let dir: TestDir | undefined;
afterEach(() => dir?.cleanup());

/** Runs `nexus serve --port 0 --families <families> <args>` in `project` in this process until it prints its URL; `stop()` shuts it down. */
async function serve(args: string[], { families = 'fs', project = {} }: { families?: string; project?: Tree } = {}) {
  dir = await testdir({ project, config: {}, state: {} });
  const env = { XDG_STATE_HOME: dir.join('state'), HOME: dir.path };
  const server = await serveInProcess(['--families', families, ...args], { cwd: dir.join('project'), configHome: dir.join('config'), env });
  const call = async (method: string) => ((await (await server.rpc(method)).json()) as { result: Record<string, unknown> }).result;
  return { ...server, call };
}

describe('nexus serve and the console', () => {
  it('serves the console and prints its one-time link, which gives the token once', async () => {
    const server = await serve([]);
    const link = /^Console: +(\S+)$/m.exec(server.stdout())?.[1] as string;
    expect(link).toMatch(new RegExp(`^${server.url}/console/#code=[\\w-]+$`));

    const page = await fetch(`${server.url}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app">');
    const code = new URL(link).hash.slice('#code='.length);
    const exchange = await fetch(`${server.url}/console/session`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(await exchange.json()).toEqual({ token: server.token });
    expect(await server.stop()).toBe(0);
  });

  it("answers list_skill_packages from the skills family's library when it is on", async () => {
    const lint = { 'SKILL.md': '---\nname: lint\ndescription: Lints the code.\ncommand: "echo lint"\n---\n# Lint\n' };
    const server = await serve([], { families: 'fs,skills', project: { '.nexus': { skills: { lint } } } });
    expect(await server.call('list_skill_packages')).toMatchObject({
      enabled: true,
      packages: [{ name: 'lint', scope: 'project', trust: 'untrusted', state: 'unlisted' }],
      diagnostics: expect.arrayContaining([
        expect.objectContaining({ severity: 'warning', file: expect.stringMatching(/\/lint\/README\.md$/), line: 1, column: 1 }),
      ]),
    });
    expect(await server.stop()).toBe(0);
  });

  it('--no-console leaves it out', async () => {
    const server = await serve(['--no-console']);
    expect(server.stdout()).not.toMatch(/Console:/);
    expect((await fetch(`${server.url}/console/`)).status).toBe(401);
    expect(await server.call('list_skill_packages')).toEqual({ enabled: false, packages: [], diagnostics: [] });
    expect(await server.stop()).toBe(0);
  });
});
