// Test support (not exported): a stand-in GitLab and an agent configured for it as instance `work`.
import type { ConfirmationRequest, PresetName, ServiceContainer, ToolResult } from '@nexus/core';
import type { ExecuteOptions, SkillRegistry } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import {
  createGitRepository,
  type GitLabStandIn,
  type RecordedRequest,
  startGitLabStandIn,
  type TestDir,
  testdir,
} from '@nexus/test-utils';
import { gitlabSkills } from '../gitlab-family.js';
import type { GitLabSettings } from '../settings.js';

export interface HarnessOptions {
  /** Permission preset of the agent (default `yolo`). */
  preset?: PresetName;
  /** Answer of the confirm service; `undefined` registers none. */
  confirm?: boolean;
  /** Overrides of the settings. */
  settings?: Partial<GitLabSettings>;
  /** `origin` remote of a git repository created as the agent's cwd; `{host}` becomes the stand-in's host and port. */
  remote?: string;
  /** The token the stand-in expects and the instance sends. */
  token?: string;
  /** The GitLab version the stand-in reports. */
  version?: string;
}

export interface Harness {
  server: GitLabStandIn;
  dir: TestDir;
  services: ServiceContainer;
  registry: SkillRegistry;
  /** Every request the confirm service received. */
  confirmations: ConfirmationRequest[];
  call(tool: string, args: Record<string, unknown>, options?: ExecuteOptions): Promise<ToolResult>;
  /** The last request of `method`, or the last request. */
  last(method?: string): RecordedRequest;
  close(): Promise<void>;
}

/** Starts a stand-in and an agent with the GitLab family configured for it as instance `work`. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { preset = 'yolo', confirm, settings = {}, remote, token, version } = options;
  const server = await startGitLabStandIn({ ...(token ? { token } : {}), ...(version ? { version } : {}) });
  const dir = await testdir();
  if (remote !== undefined) createGitRepository(dir.path, { files: {}, origin: remote.replace('{host}', new URL(server.url).host) });
  const agent = createTestAgent({
    cwd: dir.path,
    preset,
    families: [gitlabSkills],
    ...(confirm === undefined ? {} : { confirm }),
    services: {
      gitlab: { instances: { work: { url: server.url, token: server.token, username: 'alice' } }, retryDelayMs: 5, ...settings },
    },
  });
  return {
    ...agent,
    server,
    dir,
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
