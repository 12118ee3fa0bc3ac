// Test support (not exported): a stand-in GitLab, an agent's services and a registry with the
// GitLab family, wired the way an application would wire them.
import { execFileSync } from 'node:child_process';
import { type ConfirmationRequest, type PermissionLevel, resolvePreset, ServiceContainer, type ToolResult } from '@nexus/core';
import { SkillRegistry } from '@nexus/registry';
import { type GitLabStandIn, type RecordedRequest, startGitLabStandIn, type TestDir, testdir } from '@nexus/test-utils';
import { type GitLabSettings, gitlabSkills } from './index.js';

export interface HarnessOptions {
  level?: PermissionLevel;
  /** Answer of the confirm service; `undefined` registers none. */
  confirm?: boolean;
  /** Overrides of the settings. */
  settings?: Partial<GitLabSettings>;
  /** `origin` remote of a git repository created as the agent's cwd; `{host}` becomes the stand-in's host and port. */
  remote?: string;
  /** The token the stand-in expects and the instance sends. */
  token?: string;
}

export interface Harness {
  server: GitLabStandIn;
  dir: TestDir;
  services: ServiceContainer;
  registry: SkillRegistry;
  confirmations: ConfirmationRequest[];
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** The single request the last call sent other than `GET`s, or the last request. */
  last(method?: string): RecordedRequest;
  close(): Promise<void>;
}

/** Starts a stand-in and an agent at `level` (default `yolo`) configured for it as instance `work`. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { level = 'yolo', confirm, settings = {}, remote, token } = options;
  const server = await startGitLabStandIn(token ? { token } : {});
  const dir = await testdir();
  if (remote !== undefined) {
    execFileSync('git', ['init', '-q', dir.path]);
    execFileSync('git', ['-C', dir.path, 'remote', 'add', 'origin', remote.replace('{host}', new URL(server.url).host)]);
  }
  const confirmations: ConfirmationRequest[] = [];
  const services = new ServiceContainer()
    .register('cwd', dir.path)
    .register('permissions', resolvePreset(level, { cwd: dir.path }))
    .register('gitlab', { instances: { work: { url: server.url, token: server.token, username: 'alice' } }, retryDelayMs: 5, ...settings });
  if (confirm !== undefined) {
    services.register('confirm', (request) => {
      confirmations.push(request);
      return confirm;
    });
  }
  const registry = new SkillRegistry(services).use(gitlabSkills);
  return {
    server,
    dir,
    services,
    registry,
    confirmations,
    call: (tool, args) => registry.execute(tool, args),
    last(method) {
      const matching = method ? server.requests.filter((request) => request.method === method) : server.requests;
      const request = matching.at(-1);
      if (!request) throw new Error(`No ${method ?? ''} request was recorded.`);
      return request;
    },
    async close() {
      await server.close();
      await dir.cleanup();
    },
  };
}

/** One call of one action and the request it must send. */
export interface ActionCase {
  tool: string;
  args: Record<string, unknown>;
  /** The request the call ends with (its last request). */
  method: string;
  path: string;
  query?: Record<string, string>;
  /** Exact JSON body (`undefined`: none). */
  body?: unknown;
  /** Body shown by `dry_run`, when it differs (secrets masked). */
  dryRunBody?: unknown;
  /** What the output must match. */
  output?: RegExp;
  /** Words for the test title, when one action has several cases. */
  note?: string;
}

/** `"gitlab_issue create (note)"`. */
export function caseTitle(testCase: ActionCase): string {
  return `${testCase.tool} ${String(testCase.args.action)}${testCase.note ? ` (${testCase.note})` : ''}`;
}
