import { describe, expect, it } from 'vitest';
import * as agents from './index.js';

describe('the @nexus/agents surface', () => {
  it('exports the agent, its settings and model resolution, the pool and its server, their errors, nothing internal', () => {
    expect(Object.keys(agents).sort()).toEqual([
      'Agent',
      'AgentPool',
      'DEFAULT_COMPACT_AT',
      'DEFAULT_CONTEXT_WINDOW',
      'DEFAULT_MAX_TOOL_ITERATIONS',
      'MAX_AGENT_DEPTH',
      'PROVIDER_TYPES',
      'ProviderError',
      'SessionFileError',
      'TOKEN_HOLDER',
      'agentSettingsSchema',
      'assembleAgent',
      'parseAgentSettings',
      'resolveModel',
      'serveAgents',
      'summarizeModels',
    ]);
  });
});
