import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectToNexusMcp, ensureBuilt } from './testing/nexus-process-fixture.js';

let dir: TestDir;
let client: Client;

beforeAll(ensureBuilt, 180_000);
beforeEach(async () => {
  dir = await testdir({
    project: {},
    config: {
      nexus: {
        skills: {
          review: {
            'SKILL.md': '---\nname: review\ndescription: Reviews a change.\n---\nFollow references/checklist.md.\n',
            references: { 'checklist.md': '- tests first\n' },
          },
        },
      },
    },
  });
  client = await connectToNexusMcp(new Client({ name: 'documents-test', version: '1.0.0' }), ['--families', 'skills'], {
    cwd: dir.join('project'),
    configHome: dir.join('config'),
  });
});
afterEach(async () => {
  await client.close();
  await dir.cleanup();
});

describe('nexus mcp serving skill packages, with the SDK client', () => {
  it('offers a package’s instructions as a prompt and its references as resources, at the sandboxed preset', async () => {
    expect((await client.listPrompts()).prompts).toEqual([{ name: 'review', description: 'Reviews a change.' }]);
    expect((await client.getPrompt({ name: 'review' })).messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Follow references/checklist.md.' } },
    ]);
    const uri = 'skill://review/references/checklist.md';
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([uri]);
    expect((await client.readResource({ uri })).contents).toEqual([{ uri, mimeType: 'text/markdown', text: '- tests first\n' }]);
  });
});
