import { type AgentServer, parseAgentSettings, serveAgents } from '@nexus/agents';
import { fsSkills } from '@nexus/skills-fs';
import { type LlmStandIn, type RoundRobinProxy, startLlmStandIn, startRoundRobinProxy, type TestDir, testdir } from '@nexus/test-utils';
import { type RestateRuntime, type RestateRuntimeOptions, startRestateRuntime } from '../src/index.js';
import { freePort, type RestateServer, startRestateServer } from '../src/testing.js';

const KEY_VARIABLE = 'NEXUS_TEST_LLM_KEY';

/** A worker: a Restate runtime and the JSON-RPC front end over it. */
export interface Worker {
  readonly runtime: RestateRuntime;
  readonly server: AgentServer;
  /** The result of a JSON-RPC call that must succeed (`path` `/` or `/agent/<id>`). */
  result<T = Record<string, unknown>>(path: string, method: string, params?: unknown): Promise<T>;
  /** The JSON-RPC error of a call that must fail. */
  error(path: string, method: string, params?: unknown): Promise<{ code: number; message: string }>;
}

/** A Restate server, the LLM stand-in and a shared working directory: what workers join. */
export interface Cluster {
  readonly restate: RestateServer;
  readonly llm: LlmStandIn;
  readonly dir: TestDir;
  /**
   * `count` workers behind one round-robin proxy, registered as the one deployment (the turns started
   * from then on run on them); `services` makes each agent's service container, `families` replaces the file skills.
   */
  startWorkers(count: number, options?: Partial<Pick<RestateRuntimeOptions, 'services' | 'families'>>): Promise<Worker[]>;
  close(): Promise<void>;
}

async function rpc(server: AgentServer, path: string, method: string, params?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { code: number; message: string } } };
}

/** Starts a cluster: a Restate server on loopback, the LLM stand-in, a working directory `work/` every worker shares. */
export async function startCluster(): Promise<Cluster> {
  const dir = await testdir({ work: {}, restate: {}, state: {} });
  const restate = await startRestateServer(dir.join('restate'));
  const llm = await startLlmStandIn();
  const settings = parseAgentSettings({
    providers: { local: { type: 'openai-compatible', baseUrl: llm.url, apiKeyEnv: KEY_VARIABLE } },
    models: { fast: { provider: 'local', id: 'test-model' } },
    defaultModel: 'fast',
  });
  const workers: Worker[] = [];
  const proxies: RoundRobinProxy[] = [];
  return {
    restate,
    llm,
    dir,
    async startWorkers(count, options = {}) {
      const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
      const proxy = await startRoundRobinProxy(ports);
      proxies.push(proxy);
      const started: Worker[] = [];
      for (const port of ports) {
        const runtime = await startRestateRuntime({
          settings,
          families: [fsSkills],
          cwd: dir.join('work'),
          env: { [KEY_VARIABLE]: 'sk-test-key' },
          ingress: restate.ingress,
          admin: restate.admin,
          endpointPort: port,
          deploymentUrl: proxy.origin,
          ...options,
        });
        const server = await serveAgents(runtime, { port: 0, env: {}, stateDir: dir.join('state') });
        started.push({
          runtime,
          server,
          async result<T>(path: string, method: string, params?: unknown) {
            const answer = await rpc(server, path, method, params);
            if (answer.status !== 200 || answer.body.error)
              throw new Error(`${method} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
            return answer.body.result as T;
          },
          async error(path, method, params) {
            const answer = await rpc(server, path, method, params);
            if (!answer.body.error) throw new Error(`${method} did not fail: ${JSON.stringify(answer.body)}`);
            return answer.body.error;
          },
        });
      }
      workers.push(...started);
      return started;
    },
    async close() {
      await Promise.allSettled(workers.map((worker) => worker.server.close()));
      await Promise.allSettled(proxies.map((proxy) => proxy.close()));
      await restate.close();
      await llm.close();
      await dir.cleanup();
    },
  };
}
