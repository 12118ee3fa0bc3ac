// Skills, clients and servers shared by this package's tests. Not part of the public API.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type JSONRPCMessage,
  Client as ModernClient,
  type ClientCapabilities as ModernClientCapabilities,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import {
  authorizePath,
  type ConfirmFunction,
  defineSkill,
  type PresetName,
  type SkillFamily,
  type ToolPermission,
  ToolResult,
} from '@nexus/core';
import { startService } from '@nexus/process';
import { utilitySkills } from '@nexus/registry';
import { createTestAgent } from '@nexus/registry/testing';
import type { ImportedMcpServer } from './import-mcp-server.js';
import type { McpHttpServerConfig, McpStdioServerConfig } from './mcp-server-config.js';

/** The hostile MCP server (`test/hostile-mcp-server.mjs`) as a stdio configuration. */
export const hostileServer: McpStdioServerConfig = {
  command: process.execPath,
  args: [join(import.meta.dirname, '..', 'test', 'hostile-mcp-server.mjs')],
};

/** A running hostile Streamable HTTP server. */
export interface HostileHttpServer {
  config: McpHttpServerConfig;
  stop(): Promise<void>;
}

/**
 * The hostile Streamable HTTP server (`test/hostile-mcp-http-server.mjs`: `big`, `flood`, `echo`)
 * in a process of its own, so its memory is not the test's. It answers POSTs with an event stream,
 * or with `application/json` when `json` is set.
 */
export async function startHostileHttpServer(json: boolean): Promise<HostileHttpServer> {
  const script = join(import.meta.dirname, '..', 'test', 'hostile-mcp-http-server.mjs');
  const service = await startService(process.execPath, [script, ...(json ? ['--json'] : [])]);
  const lines = createInterface({ input: service.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    lines.once('close', () => reject(new Error('The hostile HTTP server exited before saying where it listens.')));
  });
  return { config: { url }, stop: () => service.stop() };
}

/** A test agent (see `createTestAgent`) using one imported server's family. */
export function agentUsing(server: ImportedMcpServer, cwd: string, preset: PresetName, confirm?: boolean) {
  return createTestAgent({ cwd, preset, families: [server.family], ...(confirm === undefined ? {} : { confirm }) });
}

/** Waits until the file at `path` holds `content`; the test fails by its own time limit if it never does. */
export async function waitForFile(path: string, content: string): Promise<void> {
  while (!existsSync(path) || readFileSync(path, 'utf8') !== content) await delay(20);
}

/** What the test skills observed. */
export interface Observations {
  /** Calls of `count`, the skill with a visible side effect. */
  counted: number;
  /** Reason the last `wait_for_abort` call's signal was aborted with; `undefined` while not aborted. */
  abortReason: unknown;
  /** Resolves when `wait_for_abort` has started. */
  waiting: Promise<void>;
}

/** A registry with the utility skills and a few test skills, under `preset` rooted at `cwd` (see `createTestAgent`). */
export function createTestRegistry(
  cwd: string,
  options: { preset?: PresetName; tools?: Record<string, Partial<ToolPermission>>; confirm?: ConfirmFunction } = {},
) {
  let started: () => void = () => {};
  const observations: Observations = { counted: 0, abortReason: undefined, waiting: new Promise((resolve) => (started = resolve)) };
  const { registry } = createTestAgent({ cwd, ...options, families: [utilitySkills, testFamilyObserving(observations, started)] });
  return { registry, observations };
}

function testFamilyObserving(observations: Observations, started: () => void): SkillFamily {
  return {
    name: 'test',
    skills: [
      defineSkill({
        name: 'count',
        description: 'Counts its calls.',
        parameters: { type: 'object', properties: {} },
        create: () => () => ToolResult.ok(String(++observations.counted)),
      }),
      defineSkill({
        name: 'stats',
        description: 'Returns structured data.',
        readOnly: true,
        parameters: { type: 'object', properties: { list: { type: 'boolean' } } },
        create:
          () =>
          ({ list }: { list?: boolean }) =>
            ToolResult.ok('two files', list ? [1, 2] : { files: 2 }),
      }),
      defineSkill({
        name: 'wait_for_abort',
        description: 'Waits until its signal is aborted.',
        readOnly: true,
        parameters: { type: 'object', properties: {} },
        create:
          () =>
          (_args, { signal }) =>
            new Promise<ToolResult>((resolve) => {
              started();
              signal?.addEventListener('abort', () => {
                observations.abortReason = signal.reason;
                resolve(ToolResult.fail('aborted', 'cancelled'));
              });
            }),
      }),
      defineSkill<{ path: string }>({
        name: 'cat',
        description: 'Reads a file through the sandbox.',
        readOnly: true,
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        create:
          (skillServices) =>
          async ({ path }) =>
            ToolResult.ok(await readFile(await authorizePath(skillServices, 'cat', path, { mustExist: true }), 'utf8')),
      }),
      defineSkill({
        name: 'exec_like',
        description: 'Needs the trusted level.',
        destructive: true,
        minimumLevel: 'trusted',
        parameters: { type: 'object', properties: {} },
        create: () => () => ToolResult.ok('ran'),
      }),
    ],
  };
}

/** An SDK client declaring `capabilities`. */
export function createClient(capabilities: ClientCapabilities = {}): Client {
  return new Client({ name: 'nexus-test-client', version: '1.0.0' }, { capabilities });
}

/** The protocol revision the v2 SDK's client speaks when pinned. */
export const MODERN_REVISION = '2026-07-28';

/** A v2 SDK client declaring `capabilities`, pinned to the 2026-07-28 revision (no `initialize`, no session). */
export function createModernClient(capabilities: ModernClientCapabilities = {}): ModernClient {
  return new ModernClient(
    { name: 'nexus-modern-test-client', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN_REVISION } } },
  );
}

/** The client end of a stdio connection, over in-memory pipes instead of a child process. */
export class PipeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();

  constructor(
    readonly toServer: PassThrough,
    readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) this.onmessage?.(message);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}
