import { writeFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type GitLabStandIn, startGitLabStandIn, type TestDir, testdir } from '@nexus/test-utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectToNexusMcp, ensureBuilt } from './testing/nexus-process-fixture.js';

let dir: TestDir;
let server: GitLabStandIn;
let client: Client;

beforeAll(async () => {
  await ensureBuilt();
  server = await startGitLabStandIn();
  dir = await testdir({ project: {}, config: { nexus: {} } });
  const config = { gitlab: { instances: { work: { url: server.url, token: server.token } } } };
  await writeFile(dir.join('config', 'nexus', 'nexus.config.json'), JSON.stringify(config));
  client = await connectToNexusMcp(
    new Client({ name: 'gitlab-output-test', version: '1.0.0' }),
    ['--preset', 'yolo', '--families', 'gitlab'],
    {
      cwd: dir.join('project'),
      configHome: dir.join('config'),
    },
  );
}, 180_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  await dir?.cleanup();
});

it('nexus mcp lists the GitLab skills with an outputSchema, and the SDK client’s check of their structuredContent passes', async () => {
  const branch = (await client.listTools()).tools.find((tool) => tool.name === 'gitlab_branch');
  expect(branch).toMatchObject({
    title: 'GitLab branches',
    annotations: { openWorldHint: true },
    outputSchema: { type: 'object', required: ['action'] },
  });
  // The 1.x SDK client validates structuredContent against the listed outputSchema and throws when it does not match.
  const list = await client.callTool({ name: 'gitlab_branch', arguments: { action: 'list', project: 'group/project' } });
  expect(list.structuredContent).toMatchObject({
    action: 'list',
    result: expect.arrayContaining([expect.objectContaining({ name: 'main' })]),
  });
  const get = await client.callTool({ name: 'gitlab_branch', arguments: { action: 'get', project: 'group/project', name: 'main' } });
  expect(get.structuredContent).toMatchObject({ action: 'get', result: { name: 'main' } });
  const plan = await client.callTool({
    name: 'gitlab_branch',
    arguments: { action: 'create', project: 'group/project', name: 'topic', ref: 'main', dry_run: true },
  });
  expect(plan.structuredContent).toMatchObject({ action: 'create', dry_run: true, requests: [{ method: 'POST' }] });
  expect(server.writes()).toEqual([]);
});
