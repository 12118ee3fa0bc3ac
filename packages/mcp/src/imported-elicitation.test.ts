import { join } from 'node:path';
import type { ConfirmationRequest } from '@nexus/core';
import { createTestAgent } from '@nexus/registry/testing';
import { type TestDir, testdir } from '@nexus/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ImportedMcpServer, importMcpServer, type McpServerConfig } from './index.js';

const testScript = (name: string) => join(import.meta.dirname, '..', 'test', name);
let dir: TestDir;
const imported: ImportedMcpServer[] = [];

beforeEach(async () => {
  dir = await testdir({});
});

afterEach(async () => {
  await Promise.all(imported.splice(0).map((server) => server.close()));
  await dir.cleanup();
});

async function agentOf(
  config: McpServerConfig,
  answer?: (request: ConfirmationRequest) => boolean,
  preset: 'trusted' | 'yolo' = 'trusted',
) {
  const server = await importMcpServer('asking', config);
  imported.push(server);
  const asked: ConfirmationRequest[] = [];
  const confirm = answer
    ? (request: ConfirmationRequest) => {
        asked.push(request);
        return answer(request);
      }
    : undefined;
  const agent = createTestAgent({ cwd: dir.path, preset, families: [server.family], ...(confirm ? { confirm } : {}) });
  return { agent, asked };
}

const isServerQuestion = (request: ConfirmationRequest) => request.action.startsWith('answer the MCP server');

describe.each([
  { revision: '2026-07-28 (input_required)', config: { command: process.execPath, args: [testScript('modern-mcp-server.mjs')] } },
  { revision: '2025-11-25 (elicitation/create)', config: { command: process.execPath, args: [testScript('eliciting-mcp-server.mjs')] } },
])('an imported $revision server asking the user during a call', ({ config }) => {
  it('puts the question to whoever made the call, and the server gets the answer', async () => {
    const { agent, asked } = await agentOf(config, () => true);
    expect((await agent.call('mcp__asking__remove', {})).output).toBe('removed');
    expect(asked.filter(isServerQuestion)).toEqual([
      expect.objectContaining({ tool: 'mcp__asking__remove', action: 'answer the MCP server "asking": Remove it?' }),
    ]);
  });

  it('declines for a caller who refuses', async () => {
    const { agent } = await agentOf(config, (request) => !isServerQuestion(request));
    expect((await agent.call('mcp__asking__remove', {})).output).toBe('kept');
  });

  it('never answers by itself: declined when nobody can be asked, even at yolo', async () => {
    const { agent } = await agentOf(config, undefined, 'yolo');
    expect((await agent.call('mcp__asking__remove', {})).output).toBe('kept');
  });
});

describe('an imported server asking for more than a yes or no', () => {
  it('is declined without asking anyone: a confirmation cannot give a name', async () => {
    const { agent, asked } = await agentOf({ command: process.execPath, args: [testScript('eliciting-mcp-server.mjs')] }, () => true);
    expect((await agent.call('mcp__asking__ask_name', {})).output).toBe('decline');
    expect(asked.filter(isServerQuestion)).toEqual([]);
  });
});
