import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { defineSkill, ToolResult } from '@nexus/core';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientLog, createMcpServer, serveHttp } from './index.js';
import { createClient, createTestRegistry } from './mcp-fixture.js';

let dir: TestDir;
const clients: Client[] = [];

beforeEach(async () => {
  dir = await testdir({ 'inside.txt': 'inside text', sandbox: {}, 'outside.txt': 'secret' });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await dir.cleanup();
});

async function connect(
  registry: ReturnType<typeof createTestRegistry>['registry'],
  client = createClient(),
  log?: ClientLog,
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(registry, { name: 'test-server', version: '9.9.9', ...(log ? { log } : {}) }).connect(serverSide);
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? '';
}

describe('createMcpServer — tools/list', () => {
  it('reports its name and version', async () => {
    const { registry } = createTestRegistry(dir.path);
    const client = await connect(registry);
    expect(client.getServerVersion()).toMatchObject({ name: 'test-server', version: '9.9.9' });
  });

  it('lists the enabled skills with their schema and read-only / destructive annotations', async () => {
    const { registry } = createTestRegistry(dir.path, { tools: { count: { enabled: false } } });
    const { tools } = await (await connect(registry)).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(['echo', 'sleep', 'stats', 'wait_for_abort', 'cat']);
    const echo = tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toEqual(registry.getSpec('echo')?.parameters);
    expect(echo?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
  });

  it('lists a skill that needs a higher level once the policy grants it', async () => {
    const { registry } = createTestRegistry(dir.path, { preset: 'trusted' });
    const { tools } = await (await connect(registry)).listTools();
    expect(tools.find((tool) => tool.name === 'exec_like')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
  });
});

describe('createMcpServer — tools/call', () => {
  it('returns the output as text', async () => {
    const { registry } = createTestRegistry(dir.path);
    const result = await (await connect(registry)).callTool({ name: 'echo', arguments: { message: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hello');
  });

  it('returns object data as structuredContent, and leaves other data out', async () => {
    const { registry } = createTestRegistry(dir.path);
    const client = await connect(registry);
    const object = await client.callTool({ name: 'stats', arguments: {} });
    expect(object.structuredContent).toEqual({ files: 2 });
    expect(textOf(object)).toBe('two files');
    const list = await client.callTool({ name: 'stats', arguments: { list: true } });
    expect(list.structuredContent).toBeUndefined();
  });

  it('lists a declared outputSchema and title, returns the data as structuredContent, and keeps error data out of a failure', async () => {
    const { registry } = createTestRegistry(dir.path);
    registry.register(
      defineSkill<{ fail?: boolean }>({
        name: 'measure',
        title: 'Measure',
        description: 'Measures.',
        readOnly: true,
        idempotent: true,
        parameters: { type: 'object', properties: { fail: { type: 'boolean' } } },
        outputSchema: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false },
        create:
          () =>
          ({ fail }) =>
            fail ? ToolResult.fail('Too big.', 'execution_failed', { data: { limit: 3 } }) : ToolResult.ok('size 2', { size: 2 }),
      }),
    );
    // The 1.x client validates structuredContent against the listed outputSchema, failures included.
    const client = await connect(registry);
    const measure = (await client.listTools()).tools.find((tool) => tool.name === 'measure');
    expect(measure).toMatchObject({ title: 'Measure', outputSchema: registry.getSpec('measure')?.outputSchema });
    expect(measure?.annotations).toEqual({ title: 'Measure', readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    const ok = await client.callTool({ name: 'measure', arguments: {} });
    expect(ok).toMatchObject({ structuredContent: { size: 2 }, content: [{ type: 'text', text: 'size 2' }] });
    const failed = await client.callTool({ name: 'measure', arguments: { fail: true } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('Too big.');
    expect(failed.structuredContent).toBeUndefined();
  });

  it('turns a failed result into isError with the message naming the parameter', async () => {
    const { registry } = createTestRegistry(dir.path);
    const result = await (await connect(registry)).callTool({ name: 'echo', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`message`');
  });

  it('refuses unknown tools and tools above the policy level through the registry', async () => {
    const { registry, observations } = createTestRegistry(dir.path, { tools: { count: { enabled: false } } });
    const client = await connect(registry);
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('Unknown tool "nope"');
    const trustedOnly = await client.callTool({ name: 'exec_like', arguments: {} });
    expect(trustedOnly.isError).toBe(true);
    expect(textOf(trustedOnly)).toContain('"trusted" permission level');
    const disabled = await client.callTool({ name: 'count', arguments: {} });
    expect(disabled.isError).toBe(true);
    expect(observations.counted).toBe(0);
  });

  it('aborts the skill’s signal when the client cancels the call', async () => {
    const { registry, observations } = createTestRegistry(dir.path);
    const client = await connect(registry);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, { signal: controller.signal });
    await observations.waiting;
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await expect.poll(() => observations.abortReason, { timeout: 10_000 }).toBe('user pressed stop');
    expect((await client.callTool({ name: 'echo', arguments: { message: 'still here' } })).isError).toBeFalsy();
  });

  it('sends progress notifications, increasing, when the client asks for them', async () => {
    const { registry } = createTestRegistry(dir.path);
    const client = await connect(registry);
    const updates: Progress[] = [];
    const result = await client.callTool({ name: 'sleep', arguments: { seconds: 2.2 } }, undefined, {
      onprogress: (progress) => updates.push(progress),
    });
    expect(textOf(result)).toBe('Slept 2.2 s.');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates[0]?.total).toBe(2200);
    expect(updates[0]?.message).toMatch(/^slept \d\.\d of 2.2 s$/);
    for (let index = 1; index < updates.length; index++) expect(updates[index]!.progress).toBeGreaterThan(updates[index - 1]!.progress);
  });
});

describe('createMcpServer — roots', () => {
  it('never widens the sandbox to the roots a client offers', async () => {
    const { registry } = createTestRegistry(dir.join('sandbox'));
    const client = createClient({ roots: { listChanged: true } });
    let rootsAsked = 0;
    client.setRequestHandler(ListRootsRequestSchema, () => {
      rootsAsked++;
      return {
        roots: [
          { uri: 'file:///', name: 'everything' },
          { uri: `file://${dir.path}`, name: 'parent' },
        ],
      };
    });
    await connect(registry, client);
    await client.sendRootsListChanged();
    const result = await client.callTool({ name: 'cat', arguments: { path: dir.join('outside.txt') } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('is not allowed');
    expect(textOf(result)).not.toContain('secret');
    expect(rootsAsked).toBe(0);
  });
});

describe('confirmation through elicitation, per call', () => {
  function confirmingRegistry() {
    return createTestRegistry(dir.path, { tools: { count: { enabled: true, requiresConfirmation: true } } });
  }

  type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: { approve: boolean } };

  function elicitingClient(answer: (message: string) => Answer | Promise<Answer>) {
    const client = createClient({ elicitation: {} });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return answer(request.params.message);
    });
    return { client, asked };
  }

  it('runs the tool once the user accepts with approve ticked', async () => {
    const { registry, observations } = confirmingRegistry();
    const { client, asked } = elicitingClient(() => ({ action: 'accept', content: { approve: true } }));
    await connect(registry, client);
    const result = await client.callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(observations.counted).toBe(1);
    expect(asked).toEqual([expect.stringContaining('Allow count to run count?')]);
  });

  it.each([
    ['declines', { action: 'decline' as const }],
    ['cancels', { action: 'cancel' as const }],
    ['accepts without ticking approve', { action: 'accept' as const, content: { approve: false } }],
  ])('refuses when the user %s', async (_case, answer) => {
    const { registry, observations } = confirmingRegistry();
    const { client } = elicitingClient(() => answer);
    await connect(registry, client);
    const result = await client.callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs confirmation');
    expect(observations.counted).toBe(0);
  });

  it('refuses without asking when the client does not support elicitation', async () => {
    const { registry, observations } = confirmingRegistry();
    const result = await (await connect(registry)).callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBe(true);
    expect(observations.counted).toBe(0);
  });

  it("falls back to the registry's confirm service when the client cannot be asked", async () => {
    const { registry, observations } = createTestRegistry(dir.path, {
      tools: { count: { enabled: true, requiresConfirmation: true } },
      confirm: () => true,
    });
    const result = await (await connect(registry)).callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(observations.counted).toBe(1);
  });

  it('asks each session its own client, even when calls of two sessions on one registry overlap', async () => {
    const { registry, observations } = confirmingRegistry();
    let release: () => void = () => {};
    const bothAsked = new Promise<void>((resolve) => (release = resolve));
    let pending = 2;
    const answerOnceBothAsked = (approve: boolean) => async () => {
      if (--pending === 0) release();
      await bothAsked;
      return { action: 'accept' as const, content: { approve } };
    };
    const yes = elicitingClient(answerOnceBothAsked(true));
    const no = elicitingClient(answerOnceBothAsked(false));
    await connect(registry, yes.client);
    await connect(registry, no.client);
    const [approved, refused] = await Promise.all([
      yes.client.callTool({ name: 'count', arguments: {} }),
      no.client.callTool({ name: 'count', arguments: {} }),
    ]);
    expect(approved.isError).toBeFalsy();
    expect(refused.isError).toBe(true);
    expect(yes.asked).toHaveLength(1);
    expect(no.asked).toHaveLength(1);
    expect(observations.counted).toBe(1);
  });
});

describe('createMcpServer — a changing tool list', () => {
  const shout = defineSkill({
    name: 'shout',
    description: 'Shouts.',
    parameters: { type: 'object', properties: {} },
    create: () => () => ToolResult.ok('HEY'),
  });

  /** Counts the client's list_changed notifications. */
  function counting(client: Client): { count: number } {
    const seen = { count: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen.count++;
    });
    return seen;
  }

  it('declares tools.listChanged and notifies after each registry change, the listing then current', async () => {
    const { registry } = createTestRegistry(dir.path);
    const client = await connect(registry);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const seen = counting(client);
    registry.replace(shout);
    await expect.poll(() => seen.count, { timeout: 10_000 }).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('shout');
    registry.unregister('shout');
    await expect.poll(() => seen.count, { timeout: 10_000 }).toBe(2);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('shout');
  });

  it('notifies every open HTTP session, and a closed one stops following the registry', async () => {
    const { registry } = createTestRegistry(dir.path);
    const served = await serveHttp(registry);
    try {
      const open = async () => {
        const client = createClient();
        await client.connect(
          new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }),
        );
        return client;
      };
      const [first, second] = [await open(), await open()];
      const [seenFirst, seenSecond] = [counting(first), counting(second)];
      // The notification stream (GET) opens after initialize; a change is only sent over it once it is open.
      await expect
        .poll(
          async () => {
            registry.replace({ ...shout, description: `Shouts ${Math.random()}.` });
            await new Promise((resolve) => setImmediate(resolve));
            return seenFirst.count > 0 && seenSecond.count > 0;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      await second.close();
      const before = seenFirst.count;
      registry.unregister('shout');
      await expect.poll(() => seenFirst.count, { timeout: 10_000 }).toBeGreaterThan(before);
      await first.close();
    } finally {
      await served.close();
    }
  });
});

describe('createMcpServer — the client log', () => {
  /** The texts of the client's `notifications/message`, as `level: text`. */
  function logged(client: Client): string[] {
    const seen: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      seen.push(`${params.level}: ${String(params.data)}${params.logger === 'nexus' ? '' : ` (logger ${params.logger})`}`);
    });
    return seen;
  }

  it('sends what was written before the client came with its first listing, then each new message at or above its level', async () => {
    const { registry } = createTestRegistry(dir.path);
    const log = new ClientLog();
    log.write('warning', 'skill package broken/SKILL.md:3:1: not loaded');
    log.write('info', 'watching 2 roots');
    const client = await connect(registry, createClient(), log);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const seen = logged(client);

    await client.listTools();
    await expect.poll(() => seen).toEqual(['warning: skill package broken/SKILL.md:3:1: not loaded', 'info: watching 2 roots']);
    await client.listTools();
    log.write('error', 'the MCP server "docs" could not be started');
    await expect.poll(() => seen).toHaveLength(3);

    await client.setLoggingLevel('warning');
    log.write('info', 'not for this client');
    log.write('warning', 'for this client');
    await expect.poll(() => seen.at(-1)).toBe('warning: for this client');
    expect(seen).toEqual([
      'warning: skill package broken/SKILL.md:3:1: not loaded',
      'info: watching 2 roots',
      'error: the MCP server "docs" could not be started',
      'warning: for this client',
    ]);
  });

  it('keeps the last 100 messages for clients to come, and declares no logging without a log', async () => {
    const { registry } = createTestRegistry(dir.path);
    const log = new ClientLog();
    for (let index = 0; index < 150; index++) log.write('notice', `message ${index}`);
    const client = await connect(registry, createClient(), log);
    const seen = logged(client);
    await client.listTools();
    await expect.poll(() => seen).toHaveLength(100);
    expect(seen[0]).toBe('notice: message 50');

    expect((await connect(registry)).getServerCapabilities()?.logging).toBeUndefined();
  });

  it('reaches every HTTP session: what came before with the first listing, then what is new', async () => {
    const { registry } = createTestRegistry(dir.path);
    const log = new ClientLog();
    log.write('warning', 'before anyone came');
    const served = await serveHttp(registry, { log });
    try {
      const open = async () => {
        const client = createClient();
        const seen = logged(client);
        await client.connect(
          new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }),
        );
        await client.listTools();
        return { client, seen };
      };
      const sessions = [await open(), await open()];
      for (const { seen } of sessions) await expect.poll(() => seen).toEqual(['warning: before anyone came']);
      // New messages go over the stream the client opens (GET) after initialize: write until both have one.
      await expect
        .poll(
          async () => {
            log.write('warning', 'later');
            await new Promise((resolve) => setImmediate(resolve));
            return sessions.every(({ seen }) => seen.includes('warning: later'));
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBe(true);
      for (const { client } of sessions) await client.close();
    } finally {
      await served.close();
    }
  });
});
