import { readFile, writeFile } from 'node:fs/promises';
import { startGitLabStandIn, testdir } from '@nexus/test-utils';
import { expect, it } from 'vitest';

it('the README example runs as written', async () => {
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(code).toBeDefined();
  const server = await startGitLabStandIn();
  const dir = await testdir();
  const printed: string[] = [];
  const { log } = console;
  const saved = { url: process.env.GITLAB_URL, token: process.env.GITLAB_TOKEN };
  try {
    process.env.GITLAB_URL = server.url;
    process.env.GITLAB_TOKEN = server.token;
    console.log = (...values: unknown[]) => printed.push(values.join(' '));
    const file = dir.join('example.mjs');
    await writeFile(file, code as string);
    await import(/* @vite-ignore */ file);
  } finally {
    console.log = log;
    process.env.GITLAB_URL = saved.url;
    process.env.GITLAB_TOKEN = saved.token;
    if (saved.url === undefined) delete process.env.GITLAB_URL;
    if (saved.token === undefined) delete process.env.GITLAB_TOKEN;
    await server.close();
    await dir.cleanup();
  }
  expect(printed[0]).toMatch(/^Found 3 issues:\n\[opened\] #1 Issue number 1/);
  expect(printed[1]).toContain(
    `POST ${server.url}/api/v4/projects/gitlab-org%2Fgitlab/issues {"title":"Found by the agent","labels":"bug"}`,
  );
  expect(printed[2]).toMatch(/^Confirm\? gitlab_issue: create on GitLab instance 'work' \(project gitlab-org\/gitlab\)/);
  expect(printed[3]).toBe('GitLab action denied by user: gitlab_issue create was not confirmed.');
  expect(server.writes()).toEqual([]);
});
