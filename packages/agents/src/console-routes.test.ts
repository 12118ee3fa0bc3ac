import { once } from 'node:events';
import { get } from 'node:http';
import { connect } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { testdir, waitUntil } from '@nexus/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerFixture, type ServerFixture, watchEvents as watch } from '../test/server-fixture.js';
import { WATCH_REPLAY_BYTES, WATCH_REPLAY_CHANGES } from './watch-changes.js';

let fixture: ServerFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A server whose console is a small built page. */
async function withConsole() {
  const assets = await testdir({
    'index.html': '<!doctype html><title>Nexus</title><script type="module" src="/console/assets/app.js"></script>',
    assets: { 'app.js': 'console.log("hi")', 'app.css': 'body{}' },
  });
  fixture = await createServerFixture({ serve: { console: { assetsDir: assets.path } } });
  return { ...fixture, origin: fixture.server.url };
}

describe('the console on the agent server (docs/console.md)', () => {
  it('serves the built page under /console/ with a CSP and no token; anything else there is 404', async () => {
    const { server } = await withConsole();

    const page = await fetch(`${server.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    expect(await page.text()).toContain('<title>Nexus</title>');
    const script = await fetch(`${server.url}/console/assets/app.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await fetch(`${server.url}/console/assets/..%2Findex.html`)).status).toBe(404);
    expect((await fetch(`${server.url}/console/assets/missing.js`)).status).toBe(404);
    const root = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/console/']);
    // DNS rebinding: a page is served to the server's own host names only.
    const rebound = await new Promise<number | undefined>((resolve, reject) =>
      get(`${server.url}/console/`, { headers: { host: `evil.example:${server.port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(rebound).toBe(403);
  });

  it('without a console, /console/ is refused as before', async () => {
    fixture = await createServerFixture();
    expect((await fetch(`${fixture.server.url}/console/`)).status).toBe(401);
  });

  it('the one-time link is exchanged for the token once, from the page own origin only', async () => {
    const { server, origin } = await withConsole();
    const link = new URL(server.consoleUrl as string);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/console/`);
    const code = new URLSearchParams(link.hash.slice(1)).get('code') as string;
    expect(code).toMatch(/^[\w-]{20,}$/);
    const exchange = (body: unknown, from = origin) =>
      fetch(`${server.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: from },
        body: JSON.stringify(body),
      });

    expect((await exchange({ code }, 'http://evil.example')).status).toBe(403);
    expect((await exchange({ code: 'wrong' })).status).toBe(403);
    const first = await exchange({ code });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ token: server.token });
    expect((await exchange({ code })).status).toBe(403);
  });

  it('the page own origin may call JSON-RPC; another origin may not', async () => {
    const { rpc, origin } = await withConsole();
    expect((await rpc('/', 'list_agents', {}, { origin })).body.result).toEqual({ agents: [] });
    expect((await rpc('/', 'list_agents', {}, { origin: 'http://localhost:1' })).status).toBe(403);
  });

  it('watch streams agent, turn and approval changes of every agent; list_agents tells each agent state and usage', async () => {
    fixture = await createServerFixture();
    const { server, result, llm, dir } = fixture;
    const stream = await watch(`${server.url}/`, server.token);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');

    await result('/', 'create_agent', { agent_id: 'w', preset: 'trusted' });
    const target = dir.join('outside.txt');
    llm.script({ toolCalls: [{ name: 'write_file', arguments: { path: target, content: 'x' } }] }, { text: 'Written.' });
    const paused = await result<{ approvals: Array<{ approval_id: string }> }>('/agent/w', 'send', { content: 'write', request_id: 'r1' });
    const stateOfW = async () => (await result<{ agents: Array<{ state: string }> }>('/', 'list_agents')).agents[0]?.state;
    expect(await stateOfW()).toBe('awaiting_approval');
    await result('/agent/w', 'resolve_approval', { approval_id: paused.approvals[0]?.approval_id, decision: 'approve' });
    await result('/agent/w', 'wait_for', { request_id: 'r1' });
    expect(await stateOfW()).toBe('idle');
    const [listed] = (await result<{ agents: Array<{ usage: Record<string, number> }> }>('/', 'list_agents')).agents;
    expect(listed?.usage).toEqual({
      input_tokens: expect.any(Number),
      output_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    expect(listed?.usage.total_tokens).toBeGreaterThan(0);
    await result('/', 'destroy_agent', { agent_id: 'w' });
    await waitUntil(() => stream.events.some((event) => event.name === 'agent_destroyed'), 'the destroy to be streamed');
    await stream.close();

    const names = stream.events.map((event) => event.name).filter((name) => name !== 'usage');
    expect(names).toEqual([
      'ready',
      'agent_created',
      'turn_started',
      'tool_call',
      'approval_required',
      'approval_resolved',
      'tool_result',
      'text',
      'turn_ended',
      'agent_destroyed',
    ]);
    const byName = (name: string) => stream.events.find((event) => event.name === name)?.data;
    expect(byName('agent_created')).toMatchObject({ agent_id: 'w', parent_agent_id: null });
    expect(byName('turn_started')).toEqual({ agent_id: 'w', request_id: 'r1', content: 'write' });
    expect(byName('tool_call')).toMatchObject({ agent_id: 'w', request_id: 'r1', name: 'write_file', arguments: { path: target } });
    expect(byName('approval_resolved')).toEqual({
      agent_id: 'w',
      request_id: 'r1',
      approval_id: paused.approvals[0]?.approval_id,
      status: 'approved',
    });
    expect(byName('tool_result')).toMatchObject({
      agent_id: 'w',
      request_id: 'r1',
      success: true,
      decision: 'ask',
      confirmation: { given: true },
    });
    expect(byName('turn_ended')).toEqual({
      agent_id: 'w',
      request_id: 'r1',
      reply: { content: 'Written.', request_id: 'r1', halted_at_iteration_limit: false },
    });
  });

  it("watch's tool_result tells the policy decision and what made it", async () => {
    fixture = await createServerFixture({ files: { 'notes.md': '# Notes\n' } });
    const { server, result, llm } = fixture;
    const stream = await watch(`${server.url}/`, server.token);
    await result('/', 'create_agent', { agent_id: 'r' });
    llm.script(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'x.md', content: 'x' } }] },
      { text: 'Done.' },
    );
    await result('/agent/r', 'send', { content: 'read, then write' });
    await waitUntil(() => stream.events.some((event) => event.name === 'turn_ended'), 'the turn to end');
    await stream.close();

    const results = stream.events.filter((event) => event.name === 'tool_result').map((event) => event.data);
    expect(results).toEqual([
      expect.objectContaining({ name: 'read_file', success: true, decision: 'allow', decided_by: 'preset' }),
      expect.objectContaining({ name: 'write_file', success: false, decision: 'deny', decided_by: expect.any(String) }),
    ]);
  });

  it('watch drops a client that reads too slowly with a final `dropped` event, instead of buffering for it without end', async () => {
    fixture = await createServerFixture();
    const { server, pool } = fixture;
    const socket = connect(server.port, '127.0.0.1');
    await once(socket, 'connect');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'watch' });
    socket.write(
      `POST / HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nauthorization: Bearer ${server.token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
    });
    await waitUntil(() => received.includes('event: ready'), 'the watch stream to be ready');
    const listeners = pool.listenerCount('change');

    // The client stops reading while the agents produce 25 MiB of changes.
    socket.pause();
    const sent = 400;
    for (let index = 0; index < sent; index++) {
      pool.emit('change', { name: 'text', data: { agent_id: 'slow', request_id: index, delta: 'x'.repeat(64 * 1024) } });
      await nextTurn();
    }
    socket.resume();
    const texts = () => received.split('event: text\n').length - 1;
    await waitUntil(() => received.includes('event: dropped') || texts() === sent, 'the stream to drop the client or deliver everything');

    expect(texts()).toBeLessThan(sent);
    const last = received.slice(received.lastIndexOf('event: '));
    expect(last).toMatch(/^event: dropped\ndata: \{"message":"This client read too slowly/);
    await waitUntil(() => received.endsWith('0\r\n\r\n'), 'the response to end');
    expect(pool.listenerCount('change')).toBe(listeners);
    socket.destroy();
  });

  it('watch takes only `after` (an event id) and is a global method', async () => {
    fixture = await createServerFixture();
    const { rpc } = fixture;
    expect((await rpc('/', 'watch', { agent_id: 'x' })).body.error?.code).toBe(-32602);
    expect((await rpc('/', 'watch', { after: 5 })).body.error?.code).toBe(-32602);
    expect((await rpc('/', 'watch', ['x'])).body.error?.code).toBe(-32602);
    expect((await rpc('/agent/a', 'watch', {})).body.error?.code).toBe(-32601);
  });

  it('watch with `after` resumes a broken stream: the changes the client missed come first, none twice', async () => {
    fixture = await createServerFixture();
    const { server, result, llm } = fixture;
    const first = await watch(`${server.url}/`, server.token);
    expect(first.events[0]).toEqual({ name: 'ready', data: { resumed: false } });
    await result('/', 'create_agent', { agent_id: 'a' });
    await waitUntil(() => first.events.some((event) => event.name === 'agent_created'), 'the create to be streamed');
    await first.close();
    const lastSeen = first.events.at(-1)?.id as string;
    expect(lastSeen).toMatch(/^[\w-]+:\d+$/);

    // While no stream is open, a turn runs from start to end.
    llm.script({ text: 'Hello.' });
    await result('/agent/a', 'send', { content: 'hi', request_id: 'r1' });
    await result('/agent/a', 'wait_for', { request_id: 'r1' });
    const resumed = await watch(`${server.url}/`, server.token, {}, { after: lastSeen });
    await waitUntil(() => resumed.events.some((event) => event.name === 'turn_ended'), 'the missed turn to be replayed');
    await resumed.close();
    expect(resumed.events[0]).toEqual({ name: 'ready', data: { resumed: true } });
    const names = resumed.events.map((event) => event.name).filter((name) => name !== 'usage');
    expect(names).toEqual(['ready', 'turn_started', 'text', 'turn_ended']);
    const ids = resumed.events.slice(1).map((event) => Number(event.id?.split(':')[1]));
    expect(ids).toEqual(ids.map((_, index) => Number(lastSeen.split(':')[1]) + index + 1));

    // A cursor of another server (or of this one before it restarted) is not resumed.
    const foreign = await watch(`${server.url}/`, server.token, {}, { after: `other-server:${ids.at(-1)}` });
    await foreign.close();
    expect(foreign.events).toEqual([{ name: 'ready', data: { resumed: false } }]);
  });

  it('watch with `after` does not resume once changes the client missed are no longer kept', async () => {
    fixture = await createServerFixture();
    const { server, pool } = fixture;
    const first = await watch(`${server.url}/`, server.token);
    pool.emit('change', { name: 'text', data: { agent_id: 'a', request_id: 'r', delta: 'first' } });
    await waitUntil(() => first.events.length === 2, 'the change to be streamed');
    await first.close();
    const lastSeen = first.events[1]?.id as string;

    const resumeAfter = async (after: string) => {
      const stream = await watch(`${server.url}/`, server.token, {}, { after });
      await stream.close();
      return stream.events[0]?.data;
    };
    for (let index = 0; index < WATCH_REPLAY_CHANGES; index++)
      pool.emit('change', { name: 'text', data: { agent_id: 'a', request_id: 'r', delta: 'x' } });
    expect(await resumeAfter(lastSeen)).toEqual({ resumed: true });
    pool.emit('change', { name: 'text', data: { agent_id: 'a', request_id: 'r', delta: 'x' } });
    expect(await resumeAfter(lastSeen)).toEqual({ resumed: false });

    // Bytes count too: big changes are kept up to WATCH_REPLAY_BYTES.
    const latest = await watch(`${server.url}/`, server.token);
    pool.emit('change', { name: 'text', data: { agent_id: 'a', request_id: 'r', delta: 'mark' } });
    await waitUntil(() => latest.events.length === 2, 'the change to be streamed');
    await latest.close();
    const big = { name: 'text' as const, data: { agent_id: 'a', request_id: 'r', delta: 'é'.repeat(16 * 1024) } };
    const fitting = Math.floor(WATCH_REPLAY_BYTES / (32 * 1024 + 200));
    for (let index = 0; index < fitting; index++) pool.emit('change', big);
    expect(await resumeAfter(latest.events[1]?.id as string)).toEqual({ resumed: true });
    pool.emit('change', big);
    pool.emit('change', big);
    expect(await resumeAfter(latest.events[1]?.id as string)).toEqual({ resumed: false });
  });
});
