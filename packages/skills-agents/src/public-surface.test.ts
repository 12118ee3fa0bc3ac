import { describe, expect, it } from 'vitest';

describe('the public surface of @nexus/skills-agents', () => {
  it('exports the family, its six skills and the HTTP client, nothing internal', async () => {
    expect(Object.keys(await import('./index.js')).sort()).toEqual([
      'agentSkills',
      'connectToAgentServer',
      'nexusCancelSkill',
      'nexusCreateSkill',
      'nexusDestroySkill',
      'nexusSendSkill',
      'nexusShutdownSkill',
      'nexusStatusSkill',
    ]);
  });

  it('offers plugin authors the agent-control skill helper under ./kit', async () => {
    expect(Object.keys(await import('./kit.js')).sort()).toEqual(['AGENT_ID_PATTERN', 'agentIdParameter', 'defineAgentSkill']);
  });
});
