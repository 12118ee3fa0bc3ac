import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceContainer, SkillFamily, ToolPermission } from '@nexus/core';
import type { AgentServerConnection } from '@nexus/core/agent-server';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmStandIn, startLlmStandIn, type TestDir, type Tree, testdir, waitUntil } from '@nexus/test-utils';
import {
  AgentPool,
  type AgentPoolOptions,
  type AgentRuntime,
  type AgentServer,
  type AgentSettings,
  parseAgentSettings,
  type ServeAgentsOptions,
  serveAgents,
} from '../src/index.js';
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

/** What a runtime under test is built from: the fixture's model settings, tools and working directory. */
export type TestRuntimeOptions = Omit<AgentPoolOptions, 'stateDir'>;

/** A runtime the server is tested on: what `serveAgents` serves, and in-process connections for agents' own calls. */
export interface TestRuntime extends AgentRuntime {
  /** A connection whose calls are agent `id`'s (its `nexus_*` skills'). */
  connectionFor(id: string): AgentServerConnection;
}

/** One server fixture's runtime: started once, and again over the same stored agents (a restart). */
export interface TestRuntimeHost<Runtime extends TestRuntime = TestRuntime> {
  /** Starts a runtime over the agents stored so far (none at first). */
  start(options: TestRuntimeOptions): Promise<Runtime>;
  /** Every text the runtime stored for its agents (session files, a durable engine's state): what must never hold a secret. */
  storedText(): Promise<string>;
  /** At the fixture's end: ends what its agents left running and leaves nothing of them to the next fixture. */
  close(): Promise<void>;
}

/**
 * The runtime the agent-server suite runs on (specs/agent-server.md §10): `local` unless a setup
 * file chose another with {@link useRuntime}, so that every test is written once and runs on each.
 */
export interface TestRuntimeKind {
  readonly name: string;
  /** A host for one fixture; `stateDir` is the fixture's own state directory. */
  open(stateDir: string): TestRuntimeHost;
}

/** The local runtime: an `AgentPool` whose sessions are files in the fixture's state directory. */
function localHost(stateDir: string): TestRuntimeHost<AgentPool> {
  const sessions = join(stateDir, 'sessions');
  return {
    start: async (options) => new AgentPool({ ...options, stateDir }),
    async storedText() {
      const names = await readdir(sessions, { recursive: true, withFileTypes: true }).catch(() => []);
      const files = names.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
      return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
    },
    close: async () => {},
  };
}

let runtimeKind: TestRuntimeKind = { name: 'local', open: localHost };

/** Makes {@link startTestServer} serve `kind` (a vitest setup file's call; the default is the local runtime). */
export function useRuntime(kind: TestRuntimeKind): void {
  runtimeKind = kind;
}

/** The name of the runtime the server tests run on: `local`, or the one a setup file chose. */
export function runtimeName(): string {
  return runtimeKind.name;
}

/** Options of a server fixture. */
export interface ServerFixtureOptions {
  files?: Tree;
  families?: SkillFamily[];
  env?: NodeJS.ProcessEnv;
  services?: () => ServiceContainer;
  tools?: Record<string, Partial<ToolPermission>>;
  /** More options of the server (its console, its skill packages, its issuer). */
  serve?: Pick<ServeAgentsOptions, 'console' | 'skillPackages' | 'auth'>;
}

/** An agent server on 127.0.0.1 whose agents use the LLM stand-in and the fixture's tools, and how to call it. */
export interface TestServer<Runtime extends TestRuntime = TestRuntime> {
  llm: LlmStandIn;
  dir: TestDir;
  /** The skill families of the runtime's agents. */
  families: SkillFamily[];
  runtime: Runtime;
  server: AgentServer;
  /** POSTs a JSON-RPC request (`path` `/` or `/agent/<id>`) with the server's token unless `headers` say otherwise. */
  rpc(path: string, method: string, params?: unknown, headers?: Record<string, string>): Promise<RpcAnswer>;
  /** A streaming `send` (`stream: true`) to `path`: its content type and its server-sent events, parsed. */
  streamed(path: string, params: Record<string, unknown>): Promise<{ contentType: string | null; events: StreamedEvent[] }>;
  /** The result of a call that must succeed. */
  result<T = Record<string, unknown>>(path: string, method: string, params?: unknown): Promise<T>;
  /**
   * The runtime started again over the same stored agents, as a restarted `nexus serve` is (the
   * previous one closed first, or left running as a process that died would be), under other
   * `blockedPaths` if given; the fixture closes it too.
   */
  restart(options?: { blockedPaths?: string[] }): Promise<Runtime>;
  /** Every text the runtime stored for its agents. */
  storedText(): Promise<string>;
  close(): Promise<void>;
}

/** An agent server over a local `AgentPool` (`pool`): for tests of the pool itself. */
export interface ServerFixture extends Omit<TestServer<AgentPool>, 'runtime'> {
  pool: AgentPool;
}

/** The fixture's settings: one provider, the LLM stand-in, its key read from {@link KEY_VARIABLE}. */
function standInSettings(llm: LlmStandIn): AgentSettings {
  return parseAgentSettings({
    providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: KEY_VARIABLE } },
    models: { fast: { provider: 'local', id: 'test-model' } },
    defaultModel: 'fast',
  });
}

async function serveFixture<Runtime extends TestRuntime>(
  open: (stateDir: string) => TestRuntimeHost<Runtime>,
  options: ServerFixtureOptions,
): Promise<TestServer<Runtime>> {
  const llm = await startLlmStandIn();
  const dir = await testdir({ work: options.files ?? {}, state: {} });
  const stateDir = dir.join('state');
  const families = options.families ?? [fsSkills, testFamily];
  const runtimeOptions: TestRuntimeOptions = {
    settings: standInSettings(llm),
    families,
    ...(options.tools ? { tools: options.tools } : {}),
    cwd: dir.join('work'),
    env: { [KEY_VARIABLE]: SECRET_KEY },
    ...(options.services ? { services: options.services } : {}),
  };
  const host = open(stateDir);
  const runtime = await host.start(runtimeOptions);
  const runtimes = [runtime];
  const server = await serveAgents(runtime, { port: 0, env: options.env ?? {}, stateDir, ...options.serve });
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
    runtime,
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
    async restart({ blockedPaths } = {}) {
      const next = await host.start({ ...runtimeOptions, ...(blockedPaths ? { blockedPaths } : {}) });
      runtimes.push(next);
      return next;
    },
    storedText: () => host.storedText(),
    async close() {
      // What the fixture's agents left running ends first, while the runtimes are still there to hear it.
      await host.close();
      await server.close();
      await Promise.all(runtimes.map((each) => each.close()));
      await llm.close();
      await dir.cleanup();
    },
  };
}

/** An agent server on the runtime the suite runs on ({@link useRuntime}; the local one by default). */
export function startTestServer(options: ServerFixtureOptions = {}): Promise<TestServer> {
  return serveFixture((stateDir) => runtimeKind.open(stateDir), options);
}

/** An agent server on 127.0.0.1 over a local `AgentPool` whose agents use the LLM stand-in and the fixture's tools. */
export async function createServerFixture(options: ServerFixtureOptions = {}): Promise<ServerFixture> {
  const { runtime, ...fixture } = await serveFixture(localHost, options);
  return { ...fixture, pool: runtime };
}

/** One server-sent event of `watch`. */
export interface WatchedEvent {
  name: string;
  data: Record<string, unknown>;
  /** The event's id (a change's), for `watch`'s `after`. */
  id?: string;
}

/** Opens `watch` and collects its events as they come. */
export async function watchEvents(url: string, token: string, headers: Record<string, string> = {}, params?: { after: string }) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'watch', ...(params ? { params } : {}) }),
    signal: abort.signal,
  });
  const events: WatchedEvent[] = [];
  let buffer = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const [, id, name = '', data = 'null'] = /^(?:id: (\S+)\n)?event: (\w+)\ndata: (.*)$/s.exec(buffer.slice(0, end)) ?? [];
        events.push({ name, data: JSON.parse(data), ...(id ? { id } : {}) });
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
