import { createTestAgent, outputSchemaProblems } from '@nexus/registry/testing';
import { agentSkills } from '@nexus/skills-agents';
import { startLlmStandIn, testdir, writeTree } from '@nexus/test-utils';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ensureBuilt, nexusEnv, type ServingNexus, standInModelConfig, startNexusServe } from './testing/nexus-process-fixture.js';

// The agents family's outputSchemas against what a real `nexus serve` answers, the model being the LLM stand-in.
beforeAll(ensureBuilt, 180_000);

let server: ServingNexus | undefined;
afterAll(async () => {
  if (server?.child.exitCode === null) await server.stop('SIGKILL');
  vi.unstubAllEnvs();
});

it("every agents skill declares an outputSchema that a real agent server's answers match", async () => {
  const dir = await testdir({ project: {}, config: {}, state: {} });
  const llm = await startLlmStandIn();
  try {
    await writeTree(dir.join('config', 'nexus'), { 'nexus.config.json': JSON.stringify(standInModelConfig(llm.url)) });
    const env = nexusEnv(dir.join('config'), { XDG_STATE_HOME: dir.join('state') });
    server = await startNexusServe([], { cwd: dir.join('project'), env });
    // The skills reach the server over HTTP as its token holder, reading the token file as a user's shell would.
    vi.stubEnv('XDG_STATE_HOME', dir.join('state'));
    const agent = createTestAgent({ cwd: dir.join('project'), preset: 'yolo', families: [agentSkills] });
    const port = server.port;
    llm.script({ text: 'Hello back.' });
    const calls: [string, Record<string, unknown>][] = [
      ['nexus_create', { agent_id: 'worker', port }],
      ['nexus_send', { agent_id: 'worker', content: 'Hello?', port }],
      ['nexus_status', { agent_id: 'worker', port }],
      ['nexus_cancel', { agent_id: 'worker', request_id: 'none-such', port }],
      ['nexus_destroy', { agent_id: 'worker', port }],
      ['nexus_shutdown', { port }],
    ];
    for (const [tool, args] of calls) {
      const result = await agent.call(tool, args);
      expect(agent.registry.getSpec(tool)?.title, tool).toMatch(/^[A-Z]/);
      expect(result.error, tool).toBe('');
      expect(await outputSchemaProblems(agent.registry, tool, result), tool).toEqual([]);
    }
    expect(await server.exited).toBe(0);
  } finally {
    await llm.close();
    await dir.cleanup();
  }
});
