import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidOptionError } from '@nexus/core';
import { AgentRpcError, agentServerTokenPath, RPC_ERROR_CODES } from '@nexus/core/agent-server';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectToAgentServer } from './connect-to-agent-server.js';
import { type RpcReply, startTestRpcServer, type TestRpcServer } from './rpc-server-fixture.js';

const FILE_TOKEN = 'nxk_file-token-0123456789abcdef';
const ENV_TOKEN = 'env-token-0123456789abcdef';

let state: TestDir;
let server: TestRpcServer | undefined;

beforeEach(async () => {
  state = await testdir({});
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await state.cleanup();
});

/** Writes the token file of the server on `port`, in `stateDir` (default `$XDG_STATE_HOME/nexus` of the tests). */
async function writeTokenFile(port: number, token: string, mode = 0o600, stateDir = state.join('nexus')): Promise<string> {
  const path = agentServerTokenPath(port, stateDir);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${token}\n`);
  await chmod(path, mode); // not through writeFile's mode, which the umask narrows
  return path;
}

async function serve(token: string, reply: (request: TestRpcServer['requests'][number]) => RpcReply = () => ({ result: { ok: true } })) {
  server = await startTestRpcServer(token, reply);
  return server;
}

async function rejection(promise: Promise<unknown>): Promise<AgentRpcError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(AgentRpcError.isInstance(error), String(error)).toBe(true);
  return error as AgentRpcError;
}

describe('connectToAgentServer: token discovery', () => {
  it('sends NEXUS_API_KEY when it is set, before looking at the token file', async () => {
    const { port, requests } = await serve(ENV_TOKEN);
    await writeTokenFile(port, FILE_TOKEN);
    const connection = connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN, XDG_STATE_HOME: state.path } });
    await expect(connection.call('list_agents', {})).resolves.toEqual({ ok: true });
    expect(requests.map((request) => request.authorization)).toEqual([`Bearer ${ENV_TOKEN}`]);
  });

  it('reads $XDG_STATE_HOME/nexus/rpc-<port>.token when NEXUS_API_KEY is not set, at every call', async () => {
    const { port, requests } = await serve(FILE_TOKEN);
    const path = await writeTokenFile(port, FILE_TOKEN);
    expect(path).toBe(state.join('nexus', `rpc-${port}.token`));
    const connection = connectToAgentServer({ port, env: { XDG_STATE_HOME: state.path } });
    await expect(connection.call('list_agents', {})).resolves.toEqual({ ok: true });
    expect(requests[0]?.authorization).toBe(`Bearer ${FILE_TOKEN}`);

    // A restarted server writes a new token; the same connection picks it up.
    await writeTokenFile(port, 'nxk_a-new-token-after-a-restart');
    const refused = await rejection(connection.call('list_agents', {}));
    expect(requests[1]?.authorization).toBe('Bearer nxk_a-new-token-after-a-restart');
    expect(refused.kind).toBe('forbidden');
    expect(refused.message).toContain('HTTP 403');
  });

  it('looks in ~/.local/state/nexus when XDG_STATE_HOME is not set', async () => {
    const { port, requests } = await serve(FILE_TOKEN);
    await writeTokenFile(port, FILE_TOKEN, 0o600, state.join('home', '.local', 'state', 'nexus'));
    await connectToAgentServer({ port, env: { HOME: state.join('home') } }).call('list_agents', {});
    expect(requests[0]?.authorization).toBe(`Bearer ${FILE_TOKEN}`);
  });

  it.each(['0644', '0640', '0604', '0620', '0602'])(
    'refuses a token file with mode %s, saying how to fix it, before any request',
    async (mode) => {
      const { port, requests } = await serve(FILE_TOKEN);
      const path = await writeTokenFile(port, FILE_TOKEN, Number.parseInt(mode, 8));
      const error = await rejection(connectToAgentServer({ port, env: { XDG_STATE_HOME: state.path } }).call('list_agents', {}));
      expect(error.message).toContain(`chmod 600 ${path}`);
      expect(error.message).toContain(`mode ${mode}`);
      expect(error.kind).toBe('forbidden');
      expect(requests).toEqual([]);
    },
  );

  it('says where it looked when there is neither NEXUS_API_KEY nor a token file', async () => {
    const error = await rejection(connectToAgentServer({ port: 45_678, env: { XDG_STATE_HOME: state.path } }).call('list_agents', {}));
    expect(error.message).toBe(
      `No token for an agent server on port 45678: NEXUS_API_KEY is not set and ${state.join('nexus', 'rpc-45678.token')} does not exist — start one with \`nexus serve --port 45678\`.`,
    );
  });

  it('refuses a NEXUS_API_KEY shorter than 16 characters', async () => {
    const { port, requests } = await serve(FILE_TOKEN);
    await writeTokenFile(port, FILE_TOKEN);
    const error = await rejection(
      connectToAgentServer({ port, env: { NEXUS_API_KEY: 'short', XDG_STATE_HOME: state.path } }).call('x', {}),
    );
    expect(error.message).toMatch(/NEXUS_API_KEY is shorter than 16 characters/);
    expect(requests).toEqual([]);
  });
});

describe('connectToAgentServer: where the token may go', () => {
  it.each(['localhost.evil.com', '10.0.0.1', '0.0.0.0', 'example.com', '127.0.0.1.nip.io', '::2'])(
    'refuses host %s before any request',
    (host) => {
      expect(() => connectToAgentServer({ host, port: 8765, env: { NEXUS_API_KEY: ENV_TOKEN } })).toThrow(InvalidOptionError);
      expect(() => connectToAgentServer({ host, port: 8765 })).toThrow(
        `Expected \`host\` to be a loopback address (127.0.0.1, ::1 or localhost), got ${JSON.stringify(host)}.`,
      );
    },
  );

  it.each([0, 70_000, 1.5, Number.NaN])('refuses port %s', (port) => {
    expect(() => connectToAgentServer({ port })).toThrow('Expected `port` to be an integer from 1 to 65535');
  });

  it('reaches a server on localhost too', async () => {
    const { port } = await serve(ENV_TOKEN);
    await expect(
      connectToAgentServer({ host: 'localhost', port, env: { NEXUS_API_KEY: ENV_TOKEN } }).call('list_agents', {}),
    ).resolves.toEqual({
      ok: true,
    });
  });
});

describe('connectToAgentServer: requests and answers', () => {
  it('posts JSON-RPC 2.0 to / for global methods and to /agent/<id> for an agent, with fresh ids', async () => {
    const { port, requests } = await serve(ENV_TOKEN, ({ body }) => ({ result: { echoed: body.params } }));
    const connection = connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN } });
    expect(connection.port).toBe(port);
    await expect(connection.call('create_agent', { agent_id: 'worker' })).resolves.toEqual({ echoed: { agent_id: 'worker' } });
    await expect(connection.call('send', { content: 'hi' }, '.temp-1')).resolves.toEqual({ echoed: { content: 'hi' } });
    await connection.call('get_tokens', {}, '../escape');
    expect(requests.map(({ path, body }) => [path, body.method])).toEqual([
      ['/', 'create_agent'],
      ['/agent/.temp-1', 'send'],
      ['/agent/..%2Fescape', 'get_tokens'],
    ]);
    expect(requests[0]?.contentType).toMatch(/^application\/json/);
    expect(requests.every(({ body }) => body.jsonrpc === '2.0' && Number.isInteger(body.id))).toBe(true);
    expect(new Set(requests.map(({ body }) => body.id)).size).toBe(3);
  });

  it("rejects with the server's JSON-RPC error, code kept", async () => {
    const { port } = await serve(ENV_TOKEN, () => ({
      error: { code: RPC_ERROR_CODES.invalidParams, message: 'A sandboxed agent may send to its parent only.' },
    }));
    const error = await rejection(connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN } }).call('send', { content: 'x' }, 'b'));
    expect(error.message).toBe('A sandboxed agent may send to its parent only.');
    expect(error.rpcCode).toBe(-32602);
    expect(error.kind).toBe('invalid_input');
  });

  it.each([
    [
      404,
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Agent not found: ghost"}}',
      'not_found',
      /^No agent "ghost" on the agent server \(HTTP 404 from 127\.0\.0\.1:\d+\): Agent not found: ghost\.$/,
    ],
    [413, '', 'invalid_input', /larger than the agent server accepts \(1 MiB\) \(HTTP 413/],
    [503, 'busy', 'execution_failed', /busy \(too many connections\); try again \(HTTP 503/],
    [
      500,
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Session file ghost.json does not parse"}}',
      'execution_failed',
      /\(HTTP 500 from .*\): Session file ghost\.json does not parse\.$/,
    ],
  ] as const)('turns HTTP %i into a clear AgentRpcError', async (status, text, kind, message) => {
    const { port } = await serve(ENV_TOKEN, () => ({ status, text }));
    const error = await rejection(connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN } }).call('get_context', {}, 'ghost'));
    expect(error.message).toMatch(message);
    expect(error.kind).toBe(kind);
  });

  it('refuses an answer that is not JSON-RPC', async () => {
    const { port } = await serve(ENV_TOKEN, () => ({ status: 200, text: '<html>hello</html>' }));
    const error = await rejection(connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN } }).call('list_agents', {}));
    expect(error.message).toMatch(/answered something that is not JSON-RPC 2\.0/);
  });

  it('says how to start a server when nothing listens on the port', async () => {
    const { port } = await serve(ENV_TOKEN);
    await server?.close();
    server = undefined;
    const error = await rejection(connectToAgentServer({ port, env: { NEXUS_API_KEY: ENV_TOKEN } }).call('list_agents', {}));
    expect(error.message).toBe(`No agent server on 127.0.0.1:${port} — start one with \`nexus serve --port ${port}\`.`);
    expect(error.message).not.toContain(ENV_TOKEN);
  });
});
