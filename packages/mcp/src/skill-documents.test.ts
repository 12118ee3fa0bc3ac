import { symlink } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTestAgent } from '@nexus/registry/testing';
import { openSkillLibrary, type SkillLibrary } from '@nexus/skills-md';
import { type TestDir, testdir, writeTree } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveHttp, serveStdio } from './index.js';
import { createClient, createModernClient, MODERN_REVISION, PipeClientTransport } from './mcp-fixture.js';

const skillMd = (name: string, description: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}`;

let dir: TestDir;
let library: SkillLibrary;

beforeEach(async () => {
  dir = await testdir({
    'outside.md': 'secret\n',
    work: { '.nexus': { skills: { local: { 'SKILL.md': skillMd('local', 'Untrusted.', 'Local.\n'), references: { 'b.md': 'b' } } } } },
    config: {
      nexus: {
        skills: {
          guide: {
            'SKILL.md': skillMd('guide', 'Writes guides.', '# Guide\n\nRead references/style.md first.\n', 'allowed-tools: Read\n'),
            references: { 'style.md': '# Style\n', 'big.md': 'x'.repeat(1024 * 1024 + 1) },
            assets: { 'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
          },
        },
      },
    },
    state: {},
    home: {},
  });
  await symlink(dir.join('outside.md'), dir.join('config', 'nexus', 'skills', 'guide', 'references', 'escape.md'));
  library = await openSkillLibrary({
    cwd: dir.join('work'),
    configDirectory: dir.join('config', 'nexus'),
    stateDirectory: dir.join('state'),
    homeDirectory: dir.join('home'),
    watch: false,
    checkIntervalMs: 0,
  });
});

afterEach(async () => {
  await library.close();
  await dir.cleanup();
});

/** A registry of the library's family under the sandboxed preset, as `nexus mcp` builds it. */
function registry() {
  return createTestAgent({ cwd: dir.join('work'), preset: 'sandboxed', families: [library.family] }).registry;
}

type AnyClient = ReturnType<typeof createClient> | ReturnType<typeof createModernClient>;

/** Serves the registry over in-memory stdio to `client`, runs `use`, then closes both. */
async function overStdio(client: AnyClient, use: (client: AnyClient) => Promise<void>): Promise<void> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const served = await serveStdio(registry(), { stdin, stdout });
  await client.connect(new PipeClientTransport(stdin, stdout));
  try {
    await use(client);
  } finally {
    await client.close();
    await served.closed;
  }
}

describe.each([
  ['2026-07-28 (v2 SDK)', createModernClient],
  ['2025-11-25 (v1 SDK)', createClient],
] as const)('skill packages to a %s client', (_revision, create) => {
  it('lists each trusted package as a prompt whose message is the SKILL.md body, and its files as resources', async () => {
    await overStdio(create(), async (client) => {
      expect((await client.listPrompts()).prompts).toEqual([{ name: 'guide', description: 'Writes guides.' }]);
      expect(await client.getPrompt({ name: 'guide' })).toMatchObject({
        description: 'Writes guides.',
        messages: [{ role: 'user', content: { type: 'text', text: '# Guide\n\nRead references/style.md first.' } }],
      });
      const { resources } = await client.listResources();
      expect(resources.map(({ uri, mimeType }) => [uri, mimeType])).toEqual([
        ['skill://guide/assets/logo.png', 'image/png'],
        ['skill://guide/references/big.md', 'text/markdown'],
        ['skill://guide/references/style.md', 'text/markdown'],
      ]);
      expect((await client.readResource({ uri: 'skill://guide/references/style.md' })).contents).toEqual([
        { uri: 'skill://guide/references/style.md', mimeType: 'text/markdown', text: '# Style\n' },
      ]);
      expect((await client.readResource({ uri: 'skill://guide/assets/logo.png' })).contents).toEqual([
        { uri: 'skill://guide/assets/logo.png', mimeType: 'image/png', blob: 'iVBORw==' },
      ]);
    });
  });

  it('refuses a read out of the package (.., a symlink), of an untrusted project package, and of a file too large', async () => {
    await overStdio(create(), async (client) => {
      const read = (uri: string) => client.readResource({ uri });
      await expect(read('skill://guide/references/../../../../outside.md')).rejects.toThrow(/not allowed/);
      await expect(read('skill://guide/references/escape.md')).rejects.toThrow(/not allowed: it leads outside/);
      await expect(read('skill://local/references/b.md')).rejects.toThrow(/No skill package named "local"/);
      await expect(read('skill://guide/references/big.md')).rejects.toThrow(/at most 1048576 are read/);
      await expect(client.getPrompt({ name: 'local' })).rejects.toThrow(/No skill package named "local"/);
    });
  });
});

describe('skill packages over stateless HTTP', () => {
  it('tells a 2026-07-28 client that prompts and resources changed when a package is added', async () => {
    const served = await serveHttp(registry());
    let changes = 0;
    const client = new (await import('@modelcontextprotocol/client')).Client(
      { name: 'listening', version: '1' },
      {
        versionNegotiation: { mode: { pin: MODERN_REVISION } },
        listChanged: { prompts: { autoRefresh: false, debounceMs: 0, onChanged: () => void changes++ } },
      },
    );
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }),
      );
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['guide']);
      await writeTree(dir.join('config', 'nexus', 'skills'), { added: { 'SKILL.md': skillMd('added', 'New.', 'Added.\n') } });
      await library.refresh();
      await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['added', 'guide']);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
