import type { ServiceContainer, SkillFamily, ToolPermission } from '@nexus/core';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmStandIn, startLlmStandIn, type TestDir, type Tree, testdir, waitUntil } from '@nexus/test-utils';
import { AgentPool, type AgentServer, parseAgentSettings, type ServeAgentsOptions, serveAgents } from '../src/index.js';
import { KEY_VARIABLE, SECRET_KEY, testFamily } from './agent-fixture.js';

/** A JSON-RPC answer as the server sent it, with its HTTP status. */
export interface RpcAnswer {
  status: number;
  body: { result?: unknown; error?: { code: number; message: string }; id?: unknown };
}

/** One server-sent event of a streaming `send`. */
export interface StreamedEvent {
  name: string | undefined;
  data: Record<string, unknown> | null;
}

export interface ServerFixture {
  llm: LlmStandIn;
  dir: TestDir;
  /** The skill families of the pool's agents. */
  families: SkillFamily[];
  pool: AgentPool;
  server: AgentServer;
  /** POSTs a JSON-RPC request (`path` `/` or `/agent/<id>`) with the server's token unless `headers` say otherwise. */
  rpc(path: string, method: string, params?: unknown, headers?: Record<string, string>): Promise<RpcAnswer>;
  /** A streaming `send` (`stream: true`) to `path`: its content type and its server-sent events, parsed. */
  streamed(path: string, params: Record<string, unknown>): Promise<{ contentType: string | null; events: StreamedEvent[] }>;
  /** The result of a call that must succeed. */
  result<T = Record<string, unknown>>(path: string, method: string, params?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** An agent server on 127.0.0.1 over a pool whose agents use the LLM stand-in and the fixture's tools. */
export async function createServerFixture(
  options: {
    files?: Tree;
    families?: SkillFamily[];
    env?: NodeJS.ProcessEnv;
    services?: () => ServiceContainer;
    tools?: Record<string, Partial<ToolPermission>>;
    /** More options of the server (its console, its skill packages). */
    serve?: Pick<ServeAgentsOptions, 'console' | 'skillPackages' | 'auth'>;
  } = {},
): Promise<ServerFixture> {
  const llm = await startLlmStandIn();
  const dir = await testdir({ work: options.files ?? {}, state: {} });
  const settings = parseAgentSettings({
    providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: KEY_VARIABLE } },
    models: { fast: { provider: 'local', id: 'test-model' } },
    defaultModel: 'fast',
  });
  const stateDir = dir.join('state');
  const families = options.families ?? [fsSkills, testFamily];
  const pool = new AgentPool({
    settings,
    families,
    ...(options.tools ? { tools: options.tools } : {}),
    cwd: dir.join('work'),
    env: { [KEY_VARIABLE]: SECRET_KEY },
    stateDir,
    ...(options.services ? { services: options.services } : {}),
  });
  const server = await serveAgents(pool, { port: 0, env: options.env ?? {}, stateDir, ...options.serve });
  const rpc = async (path: string, method: string, params?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  };
  return {
    llm,
    dir,
    families,
    pool,
    server,
    rpc,
    async streamed(path, params) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { ...params, stream: true } }),
      });
      const events = (await response.text())
        .trim()
        .split('\n\n')
        .map((block) => {
          const [, name, data] = /^event: (\w+)\ndata: (.*)$/s.exec(block) ?? [];
          return { name, data: JSON.parse(data ?? 'null') };
        });
      return { contentType: response.headers.get('content-type'), events };
    },
    async result<T>(path: string, method: string, params?: unknown) {
      const answer = await rpc(path, method, params);
      if (answer.status !== 200 || answer.body.error) throw new Error(`${method} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.result as T;
    },
    async close() {
      await server.close();
      await llm.close();
      await dir.cleanup();
    },
  };
}

/** One server-sent event of `watch`. */
export interface WatchedEvent {
  name: string;
  data: Record<string, unknown>;
}

/** Opens `watch` and collects its events as they come. */
export async function watchEvents(url: string, token: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'watch' }),
    signal: abort.signal,
  });
  const events: WatchedEvent[] = [];
  let buffer = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const [, name = '', data = 'null'] = /^event: (\w+)\ndata: (.*)$/s.exec(buffer.slice(0, end)) ?? [];
        events.push({ name, data: JSON.parse(data) });
        buffer = buffer.slice(end + 2);
      }
    }
  })().catch(() => {});
  await waitUntil(() => events.some((event) => event.name === 'ready'), 'the watch stream to be ready');
  return {
    response,
    events,
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}
